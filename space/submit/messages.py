"""The Submit tab's refusals in the words on the screen: a field named by its label and marked, never by its key.

The service says ``contact_email 'x': expected an address like name@example.org``; the page says
"Contact e-mail 'x': …" and names the field's ``elem_id`` in ``data-field``, so the page's script marks
it, brings it into view and puts the cursor in it (``workspace_a11y.FOCUS_ANSWER``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from leaderboard.records import Report
from space.site import views
from space.site.html import esc
from space.submit import declarations as submit_declarations

UNANSWERED = "This question needs an answer for a public test entry."
# The service names a field by its key; the page says the label on screen and marks the field (its elem_id).
FIELDS = {
    "model": ("Model name", "meta-model"),
    "organization": ("Organisation", "meta-organization"),
    "model_link": ("Model link", "meta-model-link"),
    "paper_link": ("Paper or code link", "meta-paper-link"),
    "contact_email": ("Contact e-mail", "meta-email"),
    "description": ("Description", "meta-description"),
    "open_weights": ("Open weights", "meta-open-weights"),
    "parameters_b": ("Parameter count", "meta-parameters"),
    **submit_declarations.FIELDS,
}
NO_MODEL = "model is required: the name readers will see on the board"
REFUSED_GONE = "The file was taken off the form: fix it and upload it again."
LEADING_KEY = re.compile(r"^(?P<key>[a-z_]+)(?=[ =:])")


def said(message: str, fields: Mapping[str, tuple[str, str]]) -> tuple[str, str | None]:
    """``message`` with its leading field key replaced by the field's label, and that field's elem_id.

    >>> said("contact_email 'x': expected an address", {"contact_email": ("Contact e-mail", "meta-email")})
    ("Contact e-mail 'x': expected an address", 'meta-email')
    >>> said("model name 'A' looks the same as 'a'", {"model": ("Model name", "meta-model")})
    ("Model name 'A' looks the same as 'a'", 'meta-model')
    """
    found = LEADING_KEY.match(message)
    key = found.group("key") if found else ""
    if key not in fields:
        return message, None
    label, elem_id = fields[key]
    rest = message[len(key) :]
    if key == "model" and rest.startswith(" name"):  # the service's own words already
        rest = rest[len(" name") :]
    return f"{label}{rest}", elem_id


def refusal(message: str, fields: Mapping[str, tuple[str, str]], report: Report | None = None) -> str:
    """Why the submission was not made, with the field it is about marked for the page's script."""
    text, elem_id = said(message, fields)
    marked = f' data-field="{esc(elem_id)}" data-said="{esc(text)}"' if elem_id else ""
    box = f'<div class="nt-note nt-note-error" role="alert"{marked}>{esc(f"Not submitted: {text}")}</div>'
    if report is not None:
        box += views.report_html(report, ready=False)
    return f'<div class="nt-report">{box}</div>'


def unanswered(questions: Sequence[tuple[str, str]]) -> str:
    """A public test entry without its declarations: the questions as the form asks them, each one marked."""
    items = "".join(f"<li>{esc(label)}</li>" for label, _ in questions)
    marked = esc(" ".join(elem_id for _, elem_id in questions))
    return (
        f'<div class="nt-report"><div class="nt-note nt-note-error" role="alert" data-field="{marked}" '
        f'data-said="{esc(UNANSWERED)}">'
        "Not submitted: a public test entry needs these questions answered (in the Declarations box above):"
        f"<ul>{items}</ul></div></div>"
    )
