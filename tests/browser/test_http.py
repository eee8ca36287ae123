"""Nothing private is reachable over HTTP: not through Gradio's file routes (of both mounted pages, ``/submit``
and ``/maintainers``), not through the site's own (static files, examples, entries), not as a forged file input;
and no public answer, plain page or JSON, holds an e-mail or a private path.

Runs against the same real app as the browser tests, without a browser.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import ROOT, RunningApp
from tests.browser.helpers import scored
from tests.service_fixtures import DECLARED


@pytest.fixture(scope="module")
def secrets_on_disk(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A scored test submission with a contact e-mail, made by a second process on the app's home."""
    folder = tmp_path_factory.mktemp("http-files")
    settings = Settings.from_env(
        {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "PUBLIC_DATASET": str(app.public)}
    )
    service = Leaderboard(settings)
    tsv = folder / "test.tsv"
    write_example(load_answer_key(app.private, "test", folder / "cache"), "noisy", tsv)
    meta = {"model": "Secretive", "contact_email": "hidden-person@example.org"}
    receipt = service.submit(tsv, split="test", user="eve", metadata=meta, publish=True, declarations=DECLARED)
    scored(service, receipt.submission_id)
    sid = receipt.submission_id
    found = {
        "request": app.home / "requests" / "requests" / f"{sid}.json",
        "upload": app.home / "requests" / "uploads" / f"{sid}.tsv",
        "rows": app.home / "requests" / "private" / sid / "rows.tsv",
    }
    found["answer key"] = next((app.home / "cache").rglob("index.json"))
    found["dataset"] = next(app.private.rglob("test-*.parquet"))
    for name, path in found.items():
        assert path.is_file(), name
    return found


MOUNTS = ("", "/submit", "/maintainers")  # the site's root, and the Gradio pages mounted on it


def _urls(path: Path) -> list[str]:
    absolute = str(path.resolve())
    relative = Path("../" * len(ROOT.parts)) / absolute.lstrip("/")
    forms = [absolute, str(relative), quote(absolute, safe=""), absolute.replace("/", "%2F")]
    forms.append(quote(str(relative).replace("..", "%2e%2e"), safe="/%"))
    urls = []
    for mount in MOUNTS:
        for form in forms:
            urls += [f"{mount}/gradio_api/file={form}", f"{mount}/file={form}", f"{mount}/gradio_api/static/{form}"]
            urls += [f"{mount}/static/{form}"]
        urls += [f"{mount}/gradio_api/file=local/../{relative}", f"{mount}/assets/../../{relative}"]
        urls += [f"{mount}/gradio_api/stream/{form}" for form in forms]
    for form in forms:  # the site's own routes that take a name or an id
        urls += [f"/examples/{form}", f"/entry/{form}", f"/api/entry/{form}"]
    return urls


def test_no_route_serves_the_private_files(app: RunningApp, secrets_on_disk: dict[str, Path]):
    with httpx.Client(base_url=app.url, timeout=10) as client:
        for name, path in secrets_on_disk.items():
            secret = path.read_bytes()[:64]
            for url in _urls(path):
                response = client.get(url)
                leaked = response.status_code == 200 and secret and secret in response.content
                assert not leaked, f"{name} served at {url}"
                assert response.status_code in (400, 403, 404, 405), (url, response.status_code)


def test_a_forged_file_input_cannot_read_a_private_file(app: RunningApp, secrets_on_disk: dict[str, Path]):
    """The Submit page's check takes an uploaded file; a client naming a server path instead is refused."""
    forged = {"path": str(secrets_on_disk["upload"]), "meta": {"_type": "gradio.FileData"}}
    with httpx.Client(base_url=app.url + "/submit", timeout=30) as client:
        event = client.post("/gradio_api/call/check_file", json={"data": [forged, "test"]}).json()["event_id"]
        stream = client.get(f"/gradio_api/call/check_file/{event}").text
    assert "event: error" in stream and "rows read" not in stream, stream[:500]


def test_public_answers_hold_no_e_mail_and_no_private_path(app: RunningApp, secrets_on_disk: dict[str, Path]):
    sid = secrets_on_disk["request"].stem
    public = ["/", "/?all=1&cols=emb,cat,details", "/embed", "/about", f"/entry/{sid}", f"/compare?compare={sid},{sid}"]
    public += ["/api/board", f"/api/entry/{sid}", "/board.csv", "/submit/", "/maintainers/"]
    public += [f"{mount}{route}" for mount in MOUNTS[1:] for route in ("/config", "/gradio_api/info")]
    with httpx.Client(base_url=app.url, timeout=10, follow_redirects=True) as client:
        for url in public:
            answer = client.get(url)
            expected = (200, 400, 404) if sid in url else (200,)  # eve's entry awaits a maintainer's approval
            assert answer.status_code in expected, (url, answer.status_code)
            text = answer.text
            assert "hidden-person@example.org" not in text, url
            assert str(app.home) not in text, url
    results = (app.home / "results" / "data" / "leaderboard.jsonl").read_text()
    assert "hidden-person" not in results and "contact_email" not in json.dumps(results)
