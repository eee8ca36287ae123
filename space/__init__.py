"""The Gradio Space: one module per tab, plus sign-in (``auth``), the HTTP app (``server``) and settings.

Page logic lives in ``leaderboard`` (``board``, ``views``, ``explorer``, ``charts``, ``about``) and
``scoring``; these modules only lay out components and wire events to the service.
"""
