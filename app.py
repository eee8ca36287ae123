"""The NaviTrace leaderboard Space: wiring only (tabs in ``space/tabs``, pages in ``space/pages``, the service in
``leaderboard/``, the metric in ``scoring/``).

    python app.py        # serves on GRADIO_SERVER_PORT (default 7860), GRADIO_SERVER_NAME (default 127.0.0.1)

Settings come from the environment once, here (``leaderboard.Settings``, ``space.settings.SpaceSettings``).
Scoring runs in a child process the app starts, supervises and stops (``leaderboard.worker_process``);
APScheduler asks it for a round every ``SCORE_INTERVAL_S``, and a submission wakes it at once.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal

import gradio as gr

from leaderboard import Settings
from leaderboard.pages_first import PAGES_BUSY_ENV
from leaderboard.scheduler import start_hub_jobs, start_worker
from leaderboard.worker_process import WorkerProcess
from space import long_lived, tabs
from space.pages import about
from space.server import DESK_PATH, launch
from space.services import Services
from space.settings import SpaceSettings
from space.tabs import entry as entry_tab

log = logging.getLogger("app")


# The trailing slash: "/maintainers" answers with a redirect whose absolute address, behind a TLS proxy, says http.
DESK_LINK = f'<p class="nt-small" id="desk-link"><a href=".{DESK_PATH}/">Maintainers\' desk →</a></p>'


def build_demo(settings: Settings, services: Services) -> gr.Blocks:
    """The page: header with sign-in, then one tab per task. ``settings`` are the service's settings.

    The maintainers' desk is a page of its own (``build_desk``, at ``DESK_PATH``); maintainers get a link to it.
    """
    auth = services.auth
    with gr.Blocks(title=about.TITLE, analytics_enabled=False, delete_cache=(1800, 3600)) as demo:
        with gr.Row(equal_height=True, elem_id="nt-header"):
            with gr.Column(scale=3):
                gr.Markdown(f"# {about.TITLE}\n{about.INTRO}")
            with gr.Column(scale=2, min_width=320):
                identity = gr.HTML(auth.bar_html(None), elem_id="identity-bar")
                if not auth.local:
                    gr.LoginButton(elem_id="login-button")
        # "wrap": every tab in sight on a phone, none behind "⋯".
        with gr.Tabs(elem_id="tabs", overflow_behavior="wrap") as tab_set:
            tabs.leaderboard.build(services, demo)
            tabs.submit.build(services, demo)
            tabs.my_submissions.build(services, demo)
            tabs.explorer.build(services, demo)
            entry_tab.build(services, demo, tab_set)  # the Entry (/?entry=id) and Compare (/?compare=a,b) tabs
            tabs.about.build(services, demo)

        def who(profile: gr.OAuthProfile | None):
            return auth.bar_html(profile) + (DESK_LINK if auth.is_maintainer(profile) else "")

        quiet = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}  # a read
        demo.load(who, None, [identity], **quiet)
    return demo


def build_desk(services: Services) -> gr.Blocks:
    """The maintainers' desk, served at ``DESK_PATH`` beside the page."""
    return tabs.maintainers.build(services)


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
    long_lived.enable()  # this process is the app: what lives at start-up is frozen (space/long_lived.py)
    services = Services.create(settings, space)
    demo, desk = build_demo(settings, services), build_desk(services)
    services.warmup.start(then=services.start_children)  # then the checking and drawing processes
    if services.pages_busy is not None:  # scoring steps aside while the pages answer (leaderboard/pages_first.py)
        environ[PAGES_BUSY_ENV] = str(services.pages_busy.path)
    worker = WorkerProcess(environ, on_scored=services.scored)
    worker.start()
    scheduler = start_worker(worker, settings.score_interval_s)  # a round every interval; a submit wakes it at once
    services.wakeup.attach(scheduler)
    start_hub_jobs(scheduler, services.leaderboard)  # eval-results pull requests, the Hub's leaderboard (HUB_*)
    signal.signal(signal.SIGTERM, _stop)  # `docker stop`, a Space restart: close the server, the scheduler, the worker
    log.info("serving on http://%s:%d (%s)", space.server_name, space.server_port, _mode(space))
    try:
        launch(demo, settings, space, services, desk=desk)  # services: the scripted submission route too
    except KeyboardInterrupt:  # SIGTERM or Ctrl-C at any moment, even before launch() blocks: a clean stop
        pass
    finally:
        scheduler.shutdown(wait=False)
        worker.stop()  # a job cut short is taken up again on the next start (its holder's pid is gone)
        shutil.rmtree(services.scratch, ignore_errors=True)
        log.info("stopped")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # gradio's launch() closes the server on it


def _mode(space: SpaceSettings) -> str:
    if space.on_space:
        return f"Space {space.space_id}, Hugging Face sign-in"
    return f"local development sign-in ({space.local_sign_in})"


if __name__ == "__main__":
    main()
