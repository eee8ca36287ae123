"""The public datasets are prepared in the background, and what follows them (the app's checking and drawing
processes) starts only once they are ready, never after a failure."""

from __future__ import annotations

import logging

from space.web.warmup import Warmup


class BrokenKeys:
    def public(self, split: str):
        raise OSError("the disk is gone")


def test_what_follows_runs_once_the_datasets_are_ready(service, tmp_path):
    warmup = Warmup(service.keys, tmp_path / "examples")
    seen: list[bool] = []
    warmup.start(then=lambda: seen.append(warmup.ready.is_set())).join(120)
    assert seen == [True] and warmup.error is None
    assert warmup.example_files()  # the examples were written before it ran


def test_nothing_follows_a_failed_preparation(tmp_path):
    warmup = Warmup(BrokenKeys(), tmp_path / "examples")  # type: ignore[arg-type]
    seen: list[str] = []
    warmup.start(then=lambda: seen.append("ran")).join(30)
    assert seen == [] and warmup.error == "OSError: the disk is gone"


def test_a_failure_of_what_follows_is_logged_and_the_pages_still_work(service, tmp_path, caplog):
    def broken() -> None:
        raise RuntimeError("spawn refused")

    warmup = Warmup(service.keys, tmp_path / "examples")
    with caplog.at_level(logging.ERROR):
        warmup.start(then=broken).join(120)
    assert warmup.error is None and warmup.ready.is_set()
    warmup.wait(1)  # no InvalidAction: the pages can use the data
    assert "spawn refused" in caplog.text
