"""The Submit tab's refusals name fields by the labels on screen; the Hub opt-in is sent only where it works."""

from __future__ import annotations

from space.submit import declarations, messages
from space.submit.tab import FIELDS


def test_a_service_refusal_names_the_field_by_its_label_and_marks_it():
    html = messages.refusal("contact_email 'x@': expected an address like name@example.org", FIELDS)
    assert "Not submitted: Contact e-mail &#x27;x@&#x27;: expected an address" in html
    assert 'data-field="meta-email"' in html and "contact_email" not in html


def test_declarations_are_named_by_their_questions():
    text, elem_id = messages.said("best_of='x': expected a whole number of runs from 1", FIELDS)
    assert text.startswith(declarations.BEST_OF_LABEL) and elem_id == "decl-best-of"
    given = declarations.answers("test", True, None, "no", "", "", False)
    missing = declarations.unanswered(given)
    assert missing == [declarations.FIELDS["trained_on"], declarations.FIELDS["best_of"]]
    html = messages.unanswered(missing)
    assert 'data-field="decl-trained decl-best-of"' in html and "trained_on" not in html


def test_a_private_entry_is_asked_nothing_and_the_hub_opt_in_needs_the_hub():
    assert declarations.answers("test", False, "none", "no", "", "1", True) is None
    assert declarations.unanswered(None) == []
    off = declarations.answers("test", True, "none", "no", "", "1", True, hub=False)
    on = declarations.answers("test", True, "none", "no", "", "1", True, hub=True)
    assert off is not None and on is not None
    assert off["share_on_hub"] is False and on["share_on_hub"] is True
