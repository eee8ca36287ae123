"""The Space, a folder a feature, each with its logic (no gradio) beside its Gradio wiring.

``web`` is the server and what stands in front of every route; ``site`` what the public pages share and their
routes; ``board``, ``entry`` and ``releases`` the public pages; ``submit``, ``explorer`` and ``desk`` the signed-in
Gradio pages, and ``workspace`` what those share. ``docs/SPACE.md`` says which module imports Gradio and why.
"""
