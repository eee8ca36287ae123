"""Free-text metadata is capped before any parsing, and refusals quote only a short prefix (against ReDoS)."""

from __future__ import annotations

import re

import pytest

from leaderboard import Rejected
from leaderboard.records import metadata as metadata_module
from leaderboard.records.metadata import MAX_PARAMETERS, QUOTE, Metadata, parse_parameters

ATTACK = "1" * 2400 + " " * 2400 + "x"  # froze the app for 50 s with the old pattern


class _Spy:
    """Stands in for the compiled pattern and records every call."""

    def __init__(self, pattern) -> None:
        self.pattern, self.calls = pattern, 0

    def fullmatch(self, text: str):
        self.calls += 1
        return self.pattern.fullmatch(text)


def test_an_oversized_parameter_count_is_refused_before_the_pattern_sees_it(monkeypatch: pytest.MonkeyPatch):
    spy = _Spy(metadata_module._PARAMETERS)
    monkeypatch.setattr(metadata_module, "_PARAMETERS", spy)
    with pytest.raises(Rejected) as refused:
        Metadata.parse({"model": "m", "parameters_b": ATTACK})
    assert spy.calls == 0
    message = str(refused.value)
    assert f"expected at most {MAX_PARAMETERS}" in message and "parameters_b" in message
    assert len(message) < 120 and "1" * 50 not in message


@pytest.mark.parametrize(
    ("text", "billions"),
    [("7B", 7.0), (" 7 b ", 7.0), ("500M", 0.5), (".5t", 500.0), ("1.5e9", 1.5), ("12", 12.0), ("7.", 7.0)],
)
def test_parameter_counts_still_parse(text: str, billions: float):
    assert parse_parameters(text) == pytest.approx(billions)


@pytest.mark.parametrize("text", ["1" * 16 + " " * 15 + "x", "7 B B", "B7", "1..5B", "-3B", "0", "nan", "inf"])
def test_near_misses_at_the_cap_are_refused_with_the_expected_form(text: str):
    with pytest.raises(Rejected, match="expected a positive parameter count like 7B"):
        parse_parameters(text)


@pytest.mark.parametrize("field", ["model", "organization", "model_link", "contact_email", "open_weights"])
def test_no_refusal_echoes_more_than_a_short_prefix(field: str):
    value = "x" * 300 + "\n" if field in ("model", "organization") else "x" * 400
    values = {"model": "m", field: value}
    with pytest.raises(Rejected) as refused:
        Metadata.parse(values)
    assert "x" * (QUOTE + 1) not in str(refused.value)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("model", "alice\u200b-test", "U+200B"),  # zero-width space
        ("model", "evil\u202egnp.exe", "U+202E"),  # right-to-left override
        ("organization", "Lab\x1b]0;pwned\x07", "U+0007, U+001B"),  # a terminal escape (OSC, ended by BEL)
        ("description", "two\nlines are fine, a bell\x07 is not", "U+0007"),
    ],
)
def test_invisible_and_control_characters_are_refused_by_name(field: str, value: str, named: str):
    with pytest.raises(Rejected, match=re.escape(f"{field} holds invisible or control characters ({named}")):
        Metadata.parse({"model": "m", field: value})


def test_a_multi_line_description_is_still_welcome():
    assert Metadata.parse({"model": "m", "description": "line one\r\nline two\tindented"}).description
