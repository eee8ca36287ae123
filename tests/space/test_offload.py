"""File checks run in child processes (a 60 MB check once held the pages' interpreter) and answer
exactly as the service does."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from leaderboard.records.errors import Rejected
from leaderboard.runtime.cpu_priority import is_background, threads_in_front
from space.web import offload
from space.web.offload import CheckFailed, Offload


@pytest.fixture
def checks(settings):
    made = Offload(settings, workers=1)
    yield made
    made.close()


def _children(checks: Offload) -> list[int]:
    return list(checks._pool._processes) if checks._pool is not None else []  # type: ignore[attr-defined]


def test_a_check_answers_as_the_service_does_in_another_lower_priority_process(checks, service, files):
    assert checks.validate(files["validation-noisy"], "validation") == service.validate(
        files["validation-noisy"], "validation"
    )
    assert checks.validate(files["test-straight"], "test") == service.validate(files["test-straight"], "test")
    (child,) = _children(checks)
    assert child != os.getpid()
    assert is_background(child) and not is_background(os.getpid())
    assert threads_in_front(child) == []  # every thread: numpy's and pyarrow's own ones too


def test_a_refused_file_is_refused_with_the_same_message_and_report(checks, service, tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("sample_id\tembodiment\tprediction\nval_0000\tHuman\tnot json\n", "utf-8")
    with pytest.raises(Rejected) as here:
        service.validate(bad, "validation")
    with pytest.raises(Rejected) as there:
        checks.validate(bad, "validation")
    assert str(there.value) == str(here.value) and there.value.report == here.value.report
    with pytest.raises(Rejected, match="expected one of"):
        checks.validate(bad, "training")


def test_a_dead_checking_process_is_an_answer_and_the_next_check_works(checks, files):
    checks.validate(files["validation-noisy"], "validation")
    (child,) = _children(checks)
    os.kill(child, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while True:  # the pool notices the death on its own thread
        try:
            checks.validate(files["validation-noisy"], "validation")
        except CheckFailed as error:
            assert "nothing was stored" in str(error)
            break
        assert time.monotonic() < deadline, "the pool never noticed its dead child"
        time.sleep(0.1)
    assert checks.validate(files["validation-noisy"], "validation").n_valid > 0


def test_a_drawing_in_the_child_is_the_explorers_own_and_its_refusals_come_back(checks, service, validation_key):
    from leaderboard.records.errors import NotFound
    from space.explorer.picture import Layers, picture

    sample, embodiment = next(validation_key.expected_rows())
    sample_id = sample.sample_id
    trace = validation_key.truths(sample_id, embodiment)[0].points
    layers = Layers(penalty=True)
    here = picture(service.keys.public("validation"), sample_id, embodiment, trace, layers, 3000.0)
    there = checks.picture(sample_id, embodiment, trace, layers, 3000.0)
    assert there.image.tobytes() == here.image.tobytes() and there.score == here.score
    assert (there.truth_index, there.charged_share, there.notes) == (here.truth_index, here.charged_share, here.notes)
    with pytest.raises(NotFound, match="no sample"):
        checks.picture("no-such-sample", embodiment, None, layers, None)


def test_a_drawing_saved_by_the_child_is_the_file_gradio_would_have_made(checks, service, validation_key, tmp_path):
    """Saved in the child, the page's interpreter never encodes it (~150 ms on the event loop a draw)."""
    from gradio.processing_utils import encode_pil_to_bytes

    from space.explorer.picture import Layers, picture

    sample, embodiment = next(validation_key.expected_rows())
    trace = validation_key.truths(sample.sample_id, embodiment)[0].points
    here = picture(service.keys.public("validation"), sample.sample_id, embodiment, trace, Layers(), 3000.0)
    there = checks.picture(sample.sample_id, embodiment, trace, Layers(), 3000.0, save_in=str(tmp_path))
    saved = Path(there.image)
    assert saved.parent.parent == tmp_path and saved.suffix == ".webp"
    assert saved.read_bytes() == encode_pil_to_bytes(here.image, "webp")  # what gr.Image would have saved
    assert there.size == here.size == (sample.width, sample.height) and there.score == here.score


def test_children_end_when_the_app_is_killed(tmp_path, settings):
    """A SIGKILLed app leaves no checking or drawing process behind."""
    import subprocess
    import sys

    script = tmp_path / "app.py"
    script.write_text(  # spawn re-imports the main module in its children: the work stays under the guard
        "import pickle, sys, time\n"
        "from space.web.offload import Offload\n"
        "if __name__ == '__main__':\n"
        "    pool = Offload(pickle.loads(bytes.fromhex(sys.argv[1])), workers=1)\n"
        "    pool._executor().submit(int, 1).result()\n"
        "    print(*pool._pool._processes, flush=True)\n"
        "    time.sleep(60)\n"
    )
    import pickle

    app = subprocess.Popen(
        [sys.executable, str(script), pickle.dumps(settings).hex()],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert app.stdout is not None
    (child,) = [int(pid) for pid in app.stdout.readline().split()]
    app.kill()
    app.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(child, signal.SIGKILL)
    raise AssertionError(f"the child {child} outlived its app")


def test_a_submission_is_checked_in_the_checking_process_and_acknowledged_as_before(settings, service, files, tmp_path):
    from space.web.services import Services
    from space.web.settings import SpaceSettings

    services = Services.create(settings, SpaceSettings(), leaderboard=service)
    try:
        assert service.intake.checker == services.checks.checked  # the web app's submissions too
        receipt = service.submit(files["validation-noisy"], split="validation", user="ann", metadata={"model": "M"})
        assert receipt.report == service.validate(files["validation-noisy"], "validation")
        (child,) = _children(services.checks)
        assert child != os.getpid()
        bad = tmp_path / "bad.tsv"
        bad.write_text("sample_id\tembodiment\tprediction\nval_0000\tHuman\tnot json\n", "utf-8")
        with pytest.raises(Rejected) as refused:
            service.submit(bad, split="validation", user="ann", metadata={"model": "M"})
        assert refused.value.report is not None and refused.value.report.n_valid == 0
    finally:
        services.checks.close()
        services.drawings.close()


def test_a_child_that_starts_after_its_app_died_ends(tmp_path, settings):
    """The app's pid comes from the app: read with getppid in a child that started after the app died,
    it was init's, and that child lived on (seen after a CI run: an orphan waiting for work forever)."""
    import pickle
    import subprocess
    import sys

    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid nobody has any more: the app, dead before its child's start-up ran
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import pickle, sys, time\n"
            "from space.web.offload import _start\n"
            "_start(pickle.loads(bytes.fromhex(sys.argv[1])), int(sys.argv[2]))\n"
            "time.sleep(60)\n",
            pickle.dumps(settings).hex(),
            str(gone.pid),
        ],
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    try:
        assert child.wait(15) == 0
    finally:
        child.kill()


def test_a_prepared_child_is_started_with_its_keys_and_then_does_the_checks(checks, files):
    checks.prepare(("validation", "test")).result(timeout=120)
    (child,) = _children(checks)
    checks.validate(files["validation-noisy"], "validation")
    assert _children(checks) == [child]


def test_a_child_is_kept_through_many_checks_while_its_memory_stays_small(checks, files):
    """Replaced every 20 checks before: each new child's start-up landed in a burst of uploads."""
    checks.validate(files["validation-noisy"], "validation")
    (child,) = _children(checks)
    for _ in range(25):
        checks.validate(files["test-straight"], "test")
    assert _children(checks) == [child]


def test_a_child_that_grew_is_replaced_after_its_task(checks, files, monkeypatch):
    checks.validate(files["validation-noisy"], "validation")
    (grown,) = _children(checks)
    monkeypatch.setattr(offload, "RECYCLE_MB", 0)  # every child is "too big" now
    assert checks.validate(files["validation-noisy"], "validation").n_valid > 0
    assert checks._pool is None  # the next task starts a new child
    monkeypatch.setattr(offload, "RECYCLE_MB", 10**6)
    checks.validate(files["validation-noisy"], "validation")
    (fresh,) = _children(checks)
    assert fresh != grown
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # the old child ends once its tasks are done
        try:
            os.kill(grown, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError(f"the replaced child {grown} lived on")


@pytest.mark.parametrize("ends_children", [True, False])
def test_a_stop_mid_task_ends_in_seconds_only_when_the_children_are_ended(tmp_path, settings, ends_children):
    """Before: on SIGTERM the app logged "stopped" and then hung in the process pool's exit until the
    child's task ended (minutes for a worst-case drawing). ``end_children`` (called by ``Services.close``
    at the app's stop) ends them; without it, the same exit still waits for the task: the test would see it."""
    import pickle
    import subprocess
    import sys

    script = tmp_path / "app.py"
    script.write_text(
        "import pickle, sys, time\n"
        "from space.web.offload import Offload, end_children\n"
        "if __name__ == '__main__':\n"
        "    pool = Offload(pickle.loads(bytes.fromhex(sys.argv[1])), workers=1)\n"
        "    pool._executor().submit(int, 1).result()\n"
        "    pool._executor().submit(time.sleep, 30)\n"  # a task as long as a worst-case drawing
        "    print('busy', flush=True)\n"
        "    time.sleep(0.5)\n"
        "    pool.close()\n"
        f"    print(end_children() if {ends_children} else 0, flush=True)\n"
    )
    started = time.monotonic()
    app = subprocess.Popen(
        [sys.executable, str(script), pickle.dumps(settings).hex()],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert app.stdout is not None and app.stdout.readline().strip() == b"busy"
    try:
        app.wait(timeout=20)
        stopped = True
    except subprocess.TimeoutExpired:
        stopped = False
        app.kill()
        app.wait()
    assert stopped is ends_children, f"exit after {time.monotonic() - started:.0f} s"
