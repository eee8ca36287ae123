"""The desk's service status section: the health route's figures and the last errors (maintainers only).

Part of the maintainers' desk (``space.desk.tab`` places it and refreshes it with the page). ``show``
asks the service whether ``by`` is a maintainer before it reads anything (``HealthMonitor.recent_errors``
checks ``MAINTAINERS``), so no call by anyone else gets the errors, whatever the page shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import gradio as gr

from leaderboard.runtime import HealthMonitor
from space.desk import health as desk_health
from space.web.services import Services


def build(services: Services) -> tuple[list, Callable[[str], list]]:
    """The section's components; ``(those the page refreshes, their refresh for the maintainer ``by``)``."""
    with gr.Accordion("Service status and last errors", open=False, elem_id="desk-health"):
        status = gr.HTML(elem_id="desk-health-panel")
        errors = gr.HTML(elem_id="desk-health-errors")
    return [status, errors], refresher(services)


def refresher(services: Services) -> Callable[[str], list]:
    """The section's refresh for the maintainer ``by``, over the services' health monitor (or a new one)."""
    return partial(show, services.health or HealthMonitor(services.leaderboard))


def show(monitor: HealthMonitor, by: str) -> list:
    """The status and the last errors, for the maintainer ``by`` only."""
    notes = monitor.recent_errors(by)  # NotAuthorised unless ``by`` is a maintainer: before anything is read
    return [desk_health.status_html(monitor.health()), desk_health.errors_html(notes)]
