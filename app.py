"""The NaviTrace leaderboard Space: wiring only (the site in ``space/web/server.py``, the public pages in
``space/public``, the signed-in Gradio tabs in ``space/tabs``, the service in ``leaderboard/``, the metric in
``scoring/``).

    python app.py        # serves on GRADIO_SERVER_PORT (default 7860), GRADIO_SERVER_NAME (default 127.0.0.1)

Settings come from the environment once, here (``leaderboard.Settings``, ``space.web.settings.SpaceSettings``).
Scoring runs in a child process the app starts, supervises and stops (``leaderboard.runtime.worker_process``);
APScheduler asks it for a round every ``SCORE_INTERVAL_S``, and a submission wakes it at once.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal

import gradio as gr

from leaderboard import Settings
from leaderboard.runtime import PAGES_BUSY_ENV, WorkerProcess, start_hub_jobs, start_worker
from space.desk import tab as desk
from space.explorer import tab as explorer
from space.site import words
from space.submit import my_submissions
from space.submit import tab as submit
from space.web import long_lived
from space.web.server import build_app, serve
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace import gradio_internals

log = logging.getLogger("app")

WORKSPACE_TABS = ("submit", "mine", "explorer")  # ?tab= names a tab by its id


def build_workspace(services: Services) -> gr.Blocks:
    """The signed-in work, one Gradio page at ``/submit`` (``?tab=mine``, ``?tab=explorer`` open those tabs);
    the header is the one every page shares, filled in for the caller on load."""
    auth = services.auth
    with gr.Blocks(title=f"{words.TITLE}: submit", analytics_enabled=False, delete_cache=(1800, 3600)) as demo:
        header = gr.HTML(auth.header(None, "submit"), elem_id="identity-bar", padding=False)
        # "wrap": every tab in sight on a phone, none behind "⋯".
        with gr.Tabs(elem_id="tabs", overflow_behavior="wrap") as tab_set:
            submit.build(services, demo)
            my_submissions.build(services, demo)
            explorer.build(services, demo)

        def opened(profile: gr.OAuthProfile | None, request: gr.Request):
            wanted = str(request.query_params.get("tab") or "submit") if request else "submit"
            wanted = wanted if wanted in WORKSPACE_TABS else "submit"
            return auth.header(profile, wanted), gr.Tabs(selected=wanted)

        quiet = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}  # a read
        demo.load(opened, None, [header, tab_set], **quiet)
    return demo


def build_desk(services: Services) -> gr.Blocks:
    """The maintainers' desk, a Gradio page of its own at ``/maintainers``."""
    return desk.build(services)


def main(environ: dict[str, str] | None = None) -> None:
    # The thread name shows where work runs: scoring in the worker process ("[worker-process:...]", its own
    # log format), never in a request thread ("AnyIO worker thread"); tests/hardening/web/test_web_load.py checks it.
    log_format = "%(asctime)s %(levelname)s [%(threadName)s] %(name)s: %(message)s"
    logging.basicConfig(level=logging.INFO, format=log_format)
    for chatty in ("apscheduler", "httpx"):  # a line per scheduler tick or HTTP call drowns the service's log
        logging.getLogger(chatty).setLevel(logging.WARNING)
    environ = dict(os.environ if environ is None else environ)
    space = SpaceSettings.from_env(environ)
    settings = Settings.from_env(environ)
    long_lived.enable()  # this process is the app: what lives at start-up is frozen (space/web/long_lived.py)
    for name, value in gradio_internals.QUIET_ANALYTICS.items():  # read by Gradio's queue when a Blocks is made
        os.environ.setdefault(name, value)
    services = Services.create(settings, space)
    site = build_app(settings, space, services, build_workspace(services), build_desk(services))
    services.board.keep_fresh()  # the public rows read and drawn ahead in a thread, not by readers' requests
    services.warmup.start(then=services.start_children)  # then the checking and drawing processes
    if services.pages_busy is not None:  # scoring steps aside while the pages answer (runtime/pages_first.py)
        environ[PAGES_BUSY_ENV] = str(services.pages_busy.path)
    health = services.health
    worker = WorkerProcess(environ, on_scored=services.scored, pulse=health.pulse if health else None)
    worker.start()
    scheduler = start_worker(worker, settings.score_interval_s)  # a round every interval; a submit wakes it at once
    services.wakeup.attach(scheduler)
    if health is not None:  # /api/health and the board's status line, read every REFRESH_S, never by a request
        health.schedule(scheduler)
    start_hub_jobs(scheduler, services.leaderboard)  # eval-results pull requests, the Hub's leaderboard (HUB_*)
    # SIGTERM (`docker stop`, a Space restart) before the server runs stops the start-up; while it runs, uvicorn's
    # own handlers close it, and hand the signal back to this one once closed.
    signal.signal(signal.SIGTERM, _stop)
    log.info("serving on http://%s:%d (%s)", space.server_name, space.server_port, _mode(space))
    try:
        serve(site, space)
    except KeyboardInterrupt:
        pass
    finally:
        scheduler.shutdown(wait=False)
        worker.stop()  # a job cut short is taken up again on the next start (its holder's pid is gone)
        services.board.close()
        services.close()  # a check or drawing cut short: its page's request is gone with the server
        shutil.rmtree(services.scratch, ignore_errors=True)
        log.info("stopped")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _mode(space: SpaceSettings) -> str:
    if space.on_space:
        return f"Space {space.space_id}, Hugging Face sign-in"
    return f"local development sign-in ({space.local_sign_in})"


if __name__ == "__main__":
    main()
