"""The maintainers' desk as a maintainer meets it, at 1440x900 (and 390x844 where noted), on a seeded store.

Every answer shows under the control pressed, inside the viewport, and takes the focus; a refused action
leaves the page (and what was typed) alone; the entry being decided shows its declarations, its flag's
evidence as a link and a likely copy's compare link; contested actions ask first, naming what will happen;
only actions that apply are offered; an empty reported figure stays unknown on the board and in the CSV.
The tests run in this order: the last ones approve entries and empty the queue.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from benchmarks.pages.audits import axe
from tests.browser.axe_setup import axe_ready
from tests.browser.conftest import MAINTAINER, page_maker, shot, stop_app
from tests.browser.desk_helpers import (
    CODE,
    EVIDENCE,
    LAPTOP,
    PHONE,
    Desk,
    answered,
    in_viewport,
    near,
    open_section,
    pick,
    seed_desk,
)
from tests.browser.helpers import open_desk, open_tab, sign_in

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[Desk]:
    seeded = seed_desk(tmp_path_factory.mktemp("desk-app"), *browser_datasets)
    yield seeded
    stop_app(seeded.app)


@pytest.fixture
def at_desk(chromium, desk: Desk, request: pytest.FixtureRequest):
    """``at_desk(size)`` -> a page signed in as the maintainer, on the desk."""
    make = page_maker(chromium, desk.app, request)
    new = next(make)

    def opened(size: dict[str, int] = LAPTOP) -> Page:
        page = new()
        page.set_viewport_size(size)
        sign_in(page, desk.app.url, MAINTAINER)
        open_desk(page)
        expect(page.locator("#pending-table")).to_be_visible()
        return page

    yield opened
    next(make, None)


def service(desk: Desk):
    from leaderboard import Leaderboard, Settings

    env = {"LEADERBOARD_HOME": str(desk.app.home), "ANSWER_KEY_DATASET": str(desk.app.private)}
    return Leaderboard(Settings.from_env({**env, "PUBLIC_DATASET": str(desk.app.public), "MAINTAINERS": MAINTAINER}))


# -- what the maintainer decides on ------------------------------------------------------------------


@SIZES
def test_the_entry_being_decided_shows_its_declarations_above_the_buttons(at_desk, desk: Desk, size):
    page = at_desk(size)
    pick(page, desk.declared)
    declared = page.locator("#maint-declared")
    expect(declared).to_contain_text("trained or tuned on NaviTrace data: yes, on the validation split")
    expect(declared).to_contain_text("test images used beyond inference: yes")
    expect(declared).to_contain_text("runs: the best of 3 runs")
    expect(declared.get_by_role("link", name=CODE)).to_have_attribute("href", CODE)
    # What approving does on the Hub, said before it is done: here sharing is off.
    expect(page.locator("#desk-hub-pr")).to_contain_text("Approving opens no pull request on the Hub")
    approve = page.locator("#approve-button")
    approve.scroll_into_view_if_needed()
    box, button = in_viewport(page, declared), in_viewport(page, approve)
    assert box["y"] + box["height"] <= button["y"] + 1  # read before pressing
    shot(page, f"desk-declarations-{size['width']}")


@SIZES
def test_a_likely_copy_links_to_the_compare_page_and_approve_is_not_the_default(at_desk, desk: Desk, size):
    page = at_desk(size)
    pick(page, desk.copy)
    compare = page.locator("#maint-copy-compare")
    expect(compare).to_have_attribute("href", f"/compare?compare={desk.original},{desk.copy}")
    expect(compare).to_have_attribute("rel", re.compile("noopener"))
    expect(page.locator("#approve-button")).not_to_have_class(re.compile(r"\bprimary\b"))  # not the green default
    in_viewport(page, compare)


def test_a_flags_evidence_is_a_link(at_desk, desk: Desk):
    page = at_desk()
    pick(page, desk.approved)
    evidence = page.locator("#maint-flag").get_by_role("link", name=EVIDENCE)
    expect(evidence).to_have_attribute("href", EVIDENCE)
    expect(evidence).to_have_attribute("rel", re.compile("noopener"))
    unflag = page.locator("#unflag-button")
    open_section(page, "Flag this submission", unflag)  # offered where there is a flag to remove
    pick(page, desk.declared)  # no flag: nothing to remove
    expect(unflag).to_be_hidden()
    expect(page.locator("#flag-button")).to_be_visible()


def test_only_the_actions_that_apply_are_offered(at_desk, desk: Desk):
    page = at_desk()
    pick(page, desk.private)  # a private validation file: nothing to approve or reject
    expect(page.locator("#approve-button")).to_be_hidden()
    expect(page.locator("#hide-button")).to_be_visible()
    expect(page.locator("#unhide-button")).to_be_hidden()
    pick(page, desk.approved)  # approved already
    expect(page.locator("#approve-button")).to_be_hidden()
    expect(page.locator("#reject-button")).to_be_visible()
    pick(page, desk.declared)  # pending and uncontested: Approve is the default
    expect(page.locator("#approve-button")).to_have_class(re.compile(r"\bprimary\b"))


def test_the_pending_list_fits_the_page_and_refresh_is_a_plain_button(at_desk):
    page = at_desk()
    table = page.locator("#pending-table")
    for column in ("Decision", "Description"):
        in_viewport(page, table.get_by_role("columnheader", name=column))
    wrap = table.locator("xpath=..")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the pending list scrolls sideways"
    refresh = page.locator("#maint-refresh").bounding_box()
    assert refresh is not None and refresh["height"] <= 48, refresh
    shot(page, "desk-pending-1440")


# -- answers where the eyes are ------------------------------------------------------------------------


@SIZES
def test_a_refused_edit_answers_under_save_and_keeps_what_was_typed(at_desk, desk: Desk, size):
    page = at_desk(size)
    # The form drawn first, then filled in by the pick: text typed into a box still being drawn can be lost.
    link = page.locator("#edit-model-link").get_by_label("Model link")
    open_section(page, "Edit the metadata of this submission", link)
    pick(page, desk.declared)
    expect(page.locator("#edit-model").get_by_label("Model name")).to_have_value("Dana-Walker")
    link.fill("not a link")
    save = page.locator("#edit-button")
    save.click()
    answer = answered(page, "edit-status")
    expect(answer).to_contain_text("Not saved (Dana-Walker by dana)")
    assert near(in_viewport(page, answer), in_viewport(page, save))
    expect(link).to_have_value("not a link")  # the typed input stays for correcting
    expect(page.locator("#maint-status")).to_be_empty()  # nothing at the top of the page
    shot(page, f"desk-refused-edit-{size['width']}")


def test_flagging_without_a_reason_answers_under_the_flag_button(at_desk, desk: Desk):
    page = at_desk()
    link = page.locator("#flag-link textarea, #flag-link input").first
    open_section(page, "Flag this submission", link)
    pick(page, desk.declared)
    link.fill("https://example.org/thread")
    button = page.locator("#flag-button")
    button.click()
    answer = answered(page, "flag-status")
    expect(answer).to_contain_text("Not flagged (Dana-Walker by dana)")
    assert near(in_viewport(page, answer), in_viewport(page, button))
    expect(link).to_have_value("https://example.org/thread")


def test_rescore_without_the_tick_is_one_note_beside_it(at_desk, desk: Desk):
    page = at_desk()
    pick(page, desk.declared)
    tick = page.get_by_label("Yes, queue every scored submission again")
    open_section(page, "Rescore everything", tick)
    page.locator("#rescore-button").click()
    answer = answered(page, "rescore-status")
    expect(answer).to_contain_text("Tick the confirmation first")
    assert near(in_viewport(page, answer), in_viewport(page, tick), 120)
    expect(page.get_by_text("Error", exact=True)).to_have_count(0)  # no red badges on the panels
    expect(page.get_by_label("Submission to act on")).to_have_value(re.compile(desk.declared))  # the picker stays
    expect(page.locator("#maint-detail")).to_contain_text(desk.declared)
    shot(page, "desk-rescore-untick-1440")


# -- nothing false published ----------------------------------------------------------------------------


def test_a_reported_row_left_without_its_optional_figures_shows_them_as_unknown(at_desk, desk: Desk):
    page = at_desk()
    valid = page.get_by_label("Valid-only score (optional)")
    open_section(page, "Reported rows", valid)
    coverage = page.get_by_label("Coverage 0–1 (optional)")
    expect(valid).to_have_value("")  # empty, not 0: unknown unless given
    expect(coverage).to_have_value("")
    page.locator("#reported-model input, #reported-model textarea").first.fill("Paper-VLM")
    page.get_by_label("Score", exact=True).fill("41.5")
    page.get_by_label("Source (link to the publication)").fill("https://arxiv.org/abs/2510.00000")
    add = page.locator("#add-reported-button")
    add.click()
    answer = answered(page, "add-reported-status")
    expect(answer).to_contain_text("Added the reported row Paper-VLM (test, 41.5)")
    assert near(in_viewport(page, answer), in_viewport(page, add))
    stored = next(r for r in service(desk).public_table() if r.get("model") == "Paper-VLM")
    assert stored["coverage"] is None and stored["score_valid_only"] is None

    open_tab(page, "Leaderboard")
    row = page.locator("#leaderboard-table tbody tr", has_text="Paper-VLM")
    expect(row).to_be_visible()
    headers = [t.strip() for t in page.locator("#leaderboard-table thead th").all_inner_texts()]
    for column in ("Coverage", "Valid-only"):
        expect(row.locator("td").nth(next(i for i, h in enumerate(headers) if h.startswith(column)))).to_have_text("—")
    shot(page, "desk-reported-row-board-1440")
    answer_csv = httpx.get(f"{desk.app.url}/board.csv", params={"split": "test"}, timeout=30)
    lines = list(csv.DictReader(io.StringIO(answer_csv.text)))
    paper = next(r for r in lines if r["model"] == "Paper-VLM")
    assert paper["coverage"] == "" and paper["score_valid_only"] == "" and paper["score"] == "41.5"


def test_removing_a_reported_row_asks_first_and_names_it(at_desk, desk: Desk):
    row = service(desk).add_reported(
        MAINTAINER, model="Gone-VLM", score=12.5, source="https://arxiv.org/abs/2510.11111", split="test"
    )
    page = at_desk()
    choice = page.get_by_label("Reported row to remove")
    open_section(page, "Reported rows", choice)
    choice.click()
    page.get_by_role("option", name=re.compile("Gone-VLM")).click()
    remove = page.locator("#remove-reported-button")
    remove.click()
    question = answered(page, "remove-confirm")
    expect(question).to_contain_text("Remove the reported row Gone-VLM (test, 12.5)? It leaves the public board")
    assert near(in_viewport(page, question), in_viewport(page, remove))
    assert any(r.get("model") == "Gone-VLM" for r in service(desk).public_table())  # nothing done yet
    page.locator("#remove-confirm-no").click()
    expect(question).to_be_hidden()
    expect(remove).to_be_focused()  # the focus goes back to the button that asked
    choice.click()
    page.get_by_role("option", name=re.compile("Gone-VLM")).click()
    remove.click()
    page.locator("#remove-confirm-yes").click()
    expect(answered(page, "remove-reported-status")).to_contain_text(f"Removed the reported row reported-{row.row_id}")
    assert not any(r.get("model") == "Gone-VLM" for r in service(desk).public_table())


# -- contested decisions ask first; the picker moves on ----------------------------------------------------


def test_approving_a_rejected_entry_asks_first_and_names_what_will_happen(at_desk, desk: Desk):
    page = at_desk()
    pick(page, desk.rejected)
    approve = page.locator("#approve-button")
    expect(approve).not_to_have_class(re.compile(r"\bprimary\b"))
    approve.click()
    question = answered(page, "approve-confirm")
    expect(question).to_contain_text(f"Approve Erin-Nav by erin ({desk.rejected})? It goes on the public board")
    expect(question).to_contain_text("although it was rejected (the file answers rows it was not asked)")
    assert near(in_viewport(page, question), in_viewport(page, approve))
    assert service(desk).status(desk.rejected).decision == "rejected"  # nothing done before the yes
    shot(page, "desk-confirm-approve-1440")
    page.locator("#approve-confirm-yes").click()
    status = answered(page, "maint-status")  # the focus is on the answer, not lost to <body>
    expect(status).to_contain_text(f"Approved {desk.rejected}: Erin-Nav by erin")
    in_viewport(page, status)
    assert service(desk).status(desk.rejected).decision == "approved"


def test_after_approve_the_picker_moves_to_the_next_pending_entry(at_desk, desk: Desk):
    page = at_desk()
    pick(page, desk.declared)
    page.locator("#approve-button").click()
    status = answered(page, "maint-status")  # the focus is on the answer, not lost to <body>
    expect(status).to_contain_text(f"Approved {desk.declared}: Dana-Walker by dana")
    expect(page.get_by_label("Submission to act on")).to_have_value(re.compile(desk.copy))  # the next one waiting
    expect(page.locator("#maint-detail")).to_contain_text(desk.copy)
    assert "common.complete" not in (page.locator("body").text_content() or "")  # hidden live regions too


def test_an_empty_queue_says_so_on_a_phone(at_desk, desk: Desk):
    lead = service(desk)
    for waiting in lead.pending(MAINTAINER):
        lead.reject(waiting.submission_id, MAINTAINER, "emptying the queue for this test")
    page = at_desk(PHONE)
    empty = page.locator("#pending-table")
    expect(empty).to_have_text("Nothing is waiting for a decision.")
    in_viewport(page, empty)
    shot(page, "desk-empty-queue-390")


# -- readability -------------------------------------------------------------------------------------------


def test_axe_finds_no_serious_contrast_problem_on_the_desk_and_the_submit_page(chromium, desk: Desk):
    axe_ready()
    # Reduced motion: a button still fading between two colours (0.2 s) is measured as it will end.
    context = chromium.new_context(viewport=LAPTOP, bypass_csp=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        sign_in(page, desk.app.url, MAINTAINER)
        open_desk(page)
        expect(page.locator("#pending-table")).to_be_visible()
        found = {"desk": axe("desk", page)}
        open_tab(page, "Submit")
        expect(page.get_by_label("Model name (required)")).to_be_visible()
        found["submit"] = axe("submit", page)
        for name, run in found.items():
            print(f"\naxe on the {name} at 1440x900: {run.rules} rules, {run.nodes} elements")
            print([(v["id"], v.get("targets")) for v in run.violations if v["impact"] in ("critical", "serious")])
        assert not any(v["impact"] in ("critical", "serious") for v in found["desk"].violations), found["desk"]
        contrast = [v for v in found["submit"].violations if v["id"] == "color-contrast"]
        assert not contrast, [(v["help"], v.get("targets")) for v in contrast]
    finally:
        context.close()
