"""The Gradio Space: one module per tab, plus sign-in (``auth``), the HTTP app (``server``) and settings.

Page logic without gradio lives in ``space/pages``; ``space/tabs`` only lays out components and wires
events to the service.
"""
