"""A store written by the code before it was reorganised loads, and shows the same, with today's code.

``legacy_store/store`` and ``legacy_store/expected.json`` were written once by
``legacy_store/make_store.py`` at commit 3ad5877 (untyped summaries, string statuses): six
submissions (approved, rejected, hidden, private, awaiting a decision, validation), a maintainer's
edit and a reported row. Today's code must read every record and render the same board.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from leaderboard import Leaderboard
from space.board.csv_rows import CSV_TRUST
from tests.space.legacy_store.make_store import MAINTAINER, observe, settings_for

HERE = Path(__file__).resolve().parent / "legacy_store"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory, demo_dataset: Path, demo_public: Path) -> dict:
    home = tmp_path_factory.mktemp("legacy") / "home"
    shutil.copytree(HERE / "store", home)
    cache = tmp_path_factory.mktemp("legacy-cache")
    service = Leaderboard(settings_for(home, demo_dataset, demo_public, cache))
    return observe(service)


@pytest.fixture(scope="module")
def expected() -> dict:
    return json.loads((HERE / "expected.json").read_text("utf-8"))


def test_every_submission_reads_back_as_it_was(seen: dict, expected: dict):
    assert len(expected["submissions"]) == 6
    # Keys added since: submitters in control (off for old records), the queue position (none: all were scored),
    # the duplicate mark (none: no copy among them) and the score release (an old record has no
    # release.json: released, as it was).
    added = {"withdrawn": False, "cancelled": False, "queue": None, "likely_copy": None, "released": True,
             "release_note": None}  # fmt: skip
    assert [{k: v for k, v in s.items() if k not in added} for s in seen["submissions"]] == expected["submissions"]
    assert all({k: s[k] for k in added} == added for s in seen["submissions"])


def test_the_public_table_is_the_same(seen: dict, expected: dict):
    assert seen["table"] == expected["table"]


@pytest.mark.parametrize("split", ["test", "validation"])
def test_the_board_and_its_csv_render_the_same(seen: dict, expected: dict, split: str):
    """The CSV cell for cell in every column it had (the interval columns came later, at the end of each line);
    the board shows every header, every row and every value it showed then.

    The board's markup has changed since (sortable headers, the score before the organisation, a
    paper/code column holding the reported row's source link, "models" counted in the summary),
    so the HTML is compared by what a reader sees in each row, not by its bytes.
    """
    now, then = seen["board"][split], expected["board"][split]
    old, new = (list(csv.reader(io.StringIO(text))) for text in (then["csv"], now["csv"]))
    assert [line[: len(old[0])] for line in new] == old
    header = now["csv"].split("\r\n")[0]
    assert "per_embodiment_ci.Bicycle.high," + ",".join(CSV_TRUST) + "," in header  # the trust columns, then later ones
    assert _numbers(now["summary_line"]) == _numbers(then["summary_line"])
    now_rows, then_rows = _rows(now["html"]), _rows(then["html"])
    assert len(now_rows) == len(then_rows)
    for shown, was in zip(now_rows, then_rows):
        assert set(was) <= set(shown), f"no longer shown: {set(was) - set(shown)}"


def _rows(html: str) -> list[list[str]]:
    """The words of each table row (the header first), tags and the sort arrow left out."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html)
    return [unescape(re.sub(r"<[^>]+>", " ", row)).replace("▼", " ").split() for row in rows]


def _numbers(text: str) -> list[str]:
    return re.findall(r"-?\d+(?:\.\d+)?", text)


def test_statuses_and_decisions_of_old_records_are_the_enums_of_today(tmp_path: Path, demo_dataset, demo_public):
    shutil.copytree(HERE / "store", tmp_path / "home")
    service = Leaderboard(settings_for(tmp_path / "home", demo_dataset, demo_public, tmp_path / "cache"))
    views = service.submissions(by=MAINTAINER)
    assert {v.status for v in views} == {"FINISHED"}
    assert sorted(v.decision for v in views) == ["approved", "approved", "approved", "pending", "pending", "rejected"]
    assert all(v.summary is None or v.summary.scorer_version == "1.0.0" for v in views)
