"""What a submitter tells us about their model, checked at intake and on every maintainer edit.

``contact_email`` is private: it is kept in the requests store and shown to maintainers only;
``public()`` is the only view that leaves the service, and it never holds it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from leaderboard.records.errors import Rejected

MAX_NAME = 120
MAX_DESCRIPTION = 2000
MAX_LINK = 500
MAX_PARAMETERS = 32  # "1.5e9", "235 B": a parameter count never needs more
QUOTE = 40  # a refusal quotes at most this much of what was sent
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# Each part can match a character in one way only (digits, then one optional fraction, then
# blanks, then one unit letter), so a failing match costs linear time. The pattern it replaces,
# ``[0-9]*\.?[0-9]+\s*[kmbt]?\s*``, could split a run of digits or blanks in quadratically many
# ways and froze the app for 50 s on 4,800 characters.
_PARAMETERS = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)[ \t]*([kKmMbBtT]?)")
_SCALE = {"k": 1e-6, "m": 1e-3, "b": 1.0, "t": 1e3}  # unit to billions
PRIVATE_FIELDS = frozenset({"contact_email"})


@dataclass(frozen=True)
class Metadata:
    model: str
    organization: str | None = None
    model_link: str | None = None
    paper_link: str | None = None  # paper or code
    contact_email: str | None = None  # private
    description: str | None = None
    open_weights: bool | None = None
    parameters_b: float | None = None  # parameter count in billions

    @classmethod
    def parse(cls, values: Mapping[str, object]) -> Metadata:
        """Check and normalise user input; ``Rejected`` names the field and what was expected."""
        unknown = set(values) - {f.name for f in fields(cls)}
        if unknown:
            raise Rejected(f"unknown metadata field {sorted(unknown)[0]!r}; expected {', '.join(field_names())}")
        return cls(
            model=_required_text("model", values.get("model"), MAX_NAME),
            organization=_text("organization", values.get("organization"), MAX_NAME),
            model_link=checked_link("model_link", values.get("model_link")),
            paper_link=checked_link("paper_link", values.get("paper_link")),
            contact_email=_email(values.get("contact_email")),
            description=_text("description", values.get("description"), MAX_DESCRIPTION, one_line=False),
            open_weights=yes_no("open_weights", values.get("open_weights")),
            parameters_b=parse_parameters(values.get("parameters_b")),
        )

    def edited(self, changes: Mapping[str, object]) -> Metadata:
        """A copy with ``changes`` applied, checked like new input."""
        return Metadata.parse({**asdict(self), **changes})

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def public(self) -> dict[str, object]:
        return {k: v for k, v in asdict(self).items() if k not in PRIVATE_FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Metadata:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        return replace(cls(model=str(data["model"])), **values)  # type: ignore[arg-type]  # stored by parse()


def field_names() -> list[str]:
    return [f.name for f in fields(Metadata)]


def parse_parameters(value: object) -> float | None:
    """Billions of parameters from ``7``, ``"7B"``, ``"500M"``, ``"1.5e9"`` (a bare number above 10,000 is a count).

    >>> parse_parameters("235B"), parse_parameters("500M"), parse_parameters(7), parse_parameters("7e9")
    (235.0, 0.5, 7.0, 7.0)
    """
    if value is None or value == "":
        return None
    expected = f"parameters_b={quoted(value)}: expected a positive parameter count like 7B or 500M"
    unit = ""
    if isinstance(value, bool):
        raise Rejected(expected)
    if isinstance(value, int | float):
        number = float(value)
    else:
        text = str(value).strip()
        if len(text) > MAX_PARAMETERS:  # checked before any parsing
            raise Rejected(f"parameters_b has {len(text)} characters, expected at most {MAX_PARAMETERS} (like 7B)")
        match = _PARAMETERS.fullmatch(text)
        try:
            number = float(match.group(1)) if match else float(text)
        except ValueError:
            raise Rejected(expected) from None
        unit = match.group(2).lower() if match else ""
    if not math.isfinite(number) or number <= 0:
        raise Rejected(expected)
    if unit:
        return number * _SCALE[unit]
    return number / 1e9 if number > 10_000 else number


def hidden_characters(text: str, allowed: str = "") -> list[str]:
    r"""Control and format characters (Unicode Cc, Cf) in ``text``, as ``U+200B`` names, except ``allowed``.

    Zero-width spaces and bidi overrides make ``alice\u200b-test`` look exactly like ``alice-test``;
    escape sequences retitle and clear a maintainer's terminal.

    >>> hidden_characters("alice\u200b-test"), hidden_characters("a\nb", allowed="\n")
    (['U+200B'], [])
    """
    found = {c for c in text if c not in allowed and is_hidden_character(c)}
    return [f"U+{ord(c):04X}" for c in sorted(found)]


def is_hidden_character(char: str) -> bool:
    """A control or format character (Unicode Cc, Cf): invisible on a page, or acted on by a terminal."""
    return unicodedata.category(char) in ("Cc", "Cf")


def look_alike_key(name: str) -> str:
    """What two names that look the same share: NFKC-normalised, case-folded, without Cc/Cf characters.

    >>> look_alike_key("ＡＬＩＣＥ-Test") == look_alike_key("alice-test")
    True
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in text if not is_hidden_character(c))


def quoted(value: object) -> str:
    """``value`` for a message: its repr, cut to a short prefix so a refusal never echoes a huge input."""
    text = str(value)
    return repr(text) if len(text) <= QUOTE else f"{text[:QUOTE]!r}… ({len(text)} characters)"


def _required_text(name: str, value: object, limit: int) -> str:
    text = _text(name, value, limit)
    if not text:
        raise Rejected(f"{name} is required: expected a non-empty name")
    return text


def _text(name: str, value: object, limit: int, one_line: bool = True) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    if len(text) > limit:  # before anything else looks at the text
        raise Rejected(f"{name} has {len(text)} characters, expected at most {limit}")
    if one_line and any(c in text for c in "\r\n\t"):
        raise Rejected(f"{name} {quoted(text)}: expected one line")
    hidden = hidden_characters(text, allowed="" if one_line else "\r\n\t")
    if hidden:
        raise Rejected(
            f"{name} holds invisible or control characters ({', '.join(hidden[:5])}): expected visible text only"
        )
    return text or None


def checked_link(name: str, value: object) -> str | None:
    text = _text(name, value, MAX_LINK)
    if text and not re.match(r"^https?://[^\s/]+\.[^\s]+$", text):
        raise Rejected(f"{name} {quoted(text)}: expected an http(s) URL like https://huggingface.co/org/model")
    return text


def _email(value: object) -> str | None:
    text = _text("contact_email", value, MAX_LINK)
    if text and not _EMAIL.match(text):
        raise Rejected(f"contact_email {quoted(text)}: expected an address like name@example.org")
    return text


def yes_no(name: str, value: object) -> bool | None:
    """``yes``/``no`` (and true/false, 1/0, y/n, a bool) as a bool; None when not answered."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("yes", "true", "1", "y"):
        return True
    if text in ("no", "false", "0", "n"):
        return False
    raise Rejected(f"{name}={quoted(value)}: expected yes or no")
