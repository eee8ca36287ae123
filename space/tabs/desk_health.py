"""The desk's service status section: the health route's figures and the last errors (maintainers only).

Part of the maintainers' desk (``space.tabs.maintainers`` places it and refreshes it with the page). ``show``
asks the service whether ``by`` is a maintainer before it reads anything (``HealthMonitor.recent_errors``
checks ``MAINTAINERS``), so no call by anyone else gets the errors, whatever the page shows.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from leaderboard.health_monitor import HealthMonitor
from space.pages import desk_health
from space.services import Services


def build(services: Services) -> tuple[list, Callable[[str], list]]:
    """The section's components; ``(those the page refreshes, their refresh for the maintainer ``by``)``."""
    monitor = services.health or HealthMonitor(services.leaderboard)
    with gr.Accordion("Service status and last errors", open=False, elem_id="desk-health"):
        status = gr.HTML(elem_id="desk-health-panel")
        errors = gr.HTML(elem_id="desk-health-errors")

    def show(by: str) -> list:
        notes = monitor.recent_errors(by)  # NotAuthorised unless ``by`` is a maintainer: before anything is read
        return [desk_health.status_html(monitor.health()), desk_health.errors_html(notes)]

    return [status, errors], show
