"""docs/SETTINGS.md is generated from the settings dataclasses and cannot go stale or leave a setting out.

As datasette checks its settings documentation: the page is generated again in memory and compared with the
file, every variable that the start-up reads is on it, and a field or a variable read without a description
fails the generator.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from leaderboard.config import Settings
from space.web import settings_docs
from space.web.settings import SpaceSettings


class Recording(dict):
    """An empty environment that remembers every name asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key, default=None):  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)


def test_the_settings_page_is_what_the_generator_writes():
    text = settings_docs.OUTPUT.read_text("utf-8")
    assert text == settings_docs.render(), "docs/SETTINGS.md is stale: run .venv/bin/python -m space.web.settings_docs"
    assert settings_docs.main(["--check"]) == 0


def test_every_variable_the_start_up_reads_has_its_row():
    text = settings_docs.OUTPUT.read_text("utf-8")
    for cls in (Settings, SpaceSettings):
        environment = Recording()
        cls.from_env(environment)
        assert environment.asked, f"{cls.__name__}.from_env read nothing: the recording saw no read"
        missing = sorted(name for name in environment.asked if f"| `{name}` |" not in text)
        assert not missing, f"{cls.__name__} reads {missing}, which docs/SETTINGS.md has no row for"


def test_the_scan_finds_the_reads_outside_the_dataclasses_and_nothing_is_left_undocumented():
    reads = settings_docs.env_reads()
    assert {"NAVITRACE_CACHE", "PAGES_BUSY_FILE", "UPLOADS_PER_MINUTE", "TRUSTED_PROXIES"} <= set(reads)
    assert reads["PAGES_BUSY_FILE"] == ["leaderboard/runtime/worker_process.py"]  # through the constant PAGES_BUSY_ENV
    assert settings_docs.undocumented(reads) == {}


def test_a_variable_read_without_a_row_is_named(tmp_path: Path):
    planted = tmp_path / "knob.py"
    planted.write_text('import os\n\nLIMIT = os.environ.get("NAVITRACE_NEW_KNOB", "3")\n')
    assert settings_docs.undocumented(settings_docs.env_reads([planted])) == {"NAVITRACE_NEW_KNOB": ["knob.py"]}


PLANTED = '''\
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Knobs:
    """Planted settings."""

    # Seconds between two rounds.
    interval_s: float = 60.0
    retries: int = 3{retries_comment}

    @classmethod
    def from_env(cls, env):
        interval = float(env.get("KNOB_INTERVAL_S", "") or 60)
        return cls(interval_s=interval, retries=int(env.get("KNOB_RETRIES", "") or 3))
'''


@pytest.fixture
def plant(tmp_path: Path) -> Iterator[Callable[[str], type]]:
    """Write the planted settings module (the ``retries`` field with the comment given) and import it."""
    names = []

    def planted(retries_comment: str) -> type:
        name = f"planted_knobs_{len(names)}"
        path = tmp_path / f"{name}.py"
        path.write_text(PLANTED.format(retries_comment=retries_comment))
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        names.append(name)
        spec.loader.exec_module(module)
        return module.Knobs

    yield planted
    for name in names:
        del sys.modules[name]


def test_a_field_without_a_description_fails_the_generator(plant):
    with pytest.raises(settings_docs.UndocumentedSetting, match=r"planted_knobs_0\.Knobs\.retries has no description"):
        settings_docs.settings_of(plant(""))


def test_a_field_gives_its_variable_default_type_and_comment(plant):
    interval, retries = settings_docs.settings_of(plant("  # tries before giving up"))
    assert interval == settings_docs.Setting(
        "interval_s", "KNOB_INTERVAL_S", (), "`60`", "number", "Seconds between two rounds."
    )
    assert retries == settings_docs.Setting(
        "retries", "KNOB_RETRIES", (), "`3`", "whole number", "Tries before giving up."
    )
