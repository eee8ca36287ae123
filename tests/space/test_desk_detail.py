"""The desk's page logic: who an entry is, what applies to it, what it declared, its flag and copy links."""

from __future__ import annotations

from dataclasses import replace

import pytest

from leaderboard.records.declarations import Declarations
from leaderboard.records.entries import JobStatus, ReviewDecision, Split
from leaderboard.service import SubmissionView
from leaderboard.storage.flags import Flag, FlagKind
from space.desk import copies, detail
from space.desk.reported_section import choices, figure

PENDING = SubmissionView(
    submission_id="c0ffee",
    user="carl",
    split=Split.TEST,
    status=JobStatus.FINISHED,
    created_at="2026-11-28T10:00:00",
    metadata={"model": "Carl-Nav", "contact_email": "carl@example.org", "description": "A walker"},
    publish=True,
    decision=ReviewDecision.PENDING,
    reason=None,
    hidden=False,
    public=False,
    attempts=1,
    message=None,
)
COPY = {"of": "0ld", "model": "Olga-Nav", "share": 1.0, "exact_share": 0.0, "rows": 21}


def test_messages_name_the_model_and_the_user():
    assert detail.who(PENDING) == "Carl-Nav by carl"
    assert detail.who(None, "c0ffee") == "c0ffee"


@pytest.mark.parametrize(
    ("view", "approve", "reject", "hide", "unhide", "contested"),
    [
        (PENDING, True, True, True, False, None),
        (replace(PENDING, publish=False, split=Split.VALIDATION), False, True, True, False, None),  # private
        (replace(PENDING, decision=ReviewDecision.APPROVED, public=True), False, True, True, False, None),
        (replace(PENDING, hidden=True), True, True, False, True, None),
        (replace(PENDING, released=False), False, True, True, False, None),  # withheld by the ladder
        (replace(PENDING, cancelled=True), False, True, True, False, None),
        (replace(PENDING, decision=ReviewDecision.REJECTED, reason="bad"), True, False, True, False, "rejected (bad)"),
        (replace(PENDING, likely_copy=COPY), True, True, True, False, "likely copy of Olga-Nav (0ld)"),
    ],
)
def test_only_what_applies_is_offered_and_contested_entries_say_why(view, approve, reject, hide, unhide, contested):
    can = detail.offered(view)
    assert (can.approve, can.reject, can.hide, can.unhide) == (approve, reject, hide, unhide)
    assert (can.contested is None) == (contested is None)
    if contested:
        assert contested in (can.contested or "")
        assert contested in detail.approve_question(view)


def test_nothing_is_offered_without_an_entry():
    assert detail.offered(None) == detail.Offered()


def test_the_declarations_line_names_every_answer_and_links_the_code():
    declared = Declarations("validation", True, "https://github.com/dana/walker", 3)
    html = detail.declared_html(declared, PENDING)
    assert "yes, on the validation split" in html and "beyond inference: <strong>yes" in html
    assert "the best of 3 runs" in html
    assert 'href="https://github.com/dana/walker"' in html and 'rel="noopener' in html
    assert "none given" in detail.declared_html(None, PENDING)
    assert detail.declared_html(None, None) == ""


@pytest.mark.parametrize("link", ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>"])
def test_a_flags_evidence_is_a_link_only_when_it_is_http(link):
    flag = Flag("c0ffee", FlagKind.UNVERIFIED, "no code", link, "2026-11-28T10:00:00", "boss")
    html = detail.flag_note(flag)
    assert "<a " not in html and "<script" not in html
    safe = detail.flag_note(replace(flag, link="https://example.org/t/1"))
    assert 'href="https://example.org/t/1"' in safe and 'rel="noopener' in safe


def test_an_empty_queue_is_a_sentence_and_a_full_one_a_table():
    assert detail.pending_table([]).startswith('<p id="pending-table"')
    assert detail.NOTHING_PENDING in detail.pending_table([])
    table = detail.pending_table([PENDING])
    assert 'id="pending-table"' in table and "Carl-Nav" in table and "carl@example.org" in table


def test_the_next_pending_entry_is_picked_after_a_decision():
    assert detail.next_pending(["a", "b", "c"], "a") == "b"
    assert detail.next_pending(["a", "b", "c"], "c") == "b"
    assert detail.next_pending(["a"], "a") is None
    assert detail.next_pending(["a", "b"], "x") == "a"


def test_a_likely_copy_links_to_the_compare_page():
    copy = replace(PENDING, likely_copy=COPY)
    assert copies.compare_url(copy) == "/compare?compare=0ld,c0ffee"
    mark = copies.mark(copy)
    assert 'href="/compare?compare=0ld,c0ffee"' in mark and 'rel="noopener noreferrer"' in mark
    assert copies.mark(PENDING) == "" and copies.compare_url(PENDING) is None


def test_an_empty_figure_is_unknown_not_zero():
    assert figure("") is None and figure("   ") is None and figure(None) is None
    assert figure("0") == "0" and figure(" 0.93 ") == "0.93"


def test_the_remove_picker_lists_only_reported_rows():
    rows = [
        {"kind": "reported", "submission_id": "reported-ab12", "model": "Paper-VLM", "split": "test", "score": 41.5},
        {"kind": "submission", "submission_id": "c0ffee", "model": "Carl-Nav", "split": "test", "score": 95.5},
    ]
    assert choices(rows) == [("Paper-VLM (test, 41.5)", "reported-ab12")]
