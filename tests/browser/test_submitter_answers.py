"""The submitter's pages answer where the eyes are, say nothing false or contradictory, and do nothing by surprise.

Each test is made at the size the problem was seen (1440x900 a laptop, 390x844 a phone), asserts what the
user sees and where (inside the viewport, near the control pressed, after the click), and saves a screenshot
to /tmp/shots24/. Its own app: one entry withheld under the ladder release policy is seeded before it starts
(the release decision is kept with the job, whatever the policy in force later).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from space.submit.declarations import BEST_OF_LABEL, BEYOND_LABEL, TRAINED_LABEL
from tests.browser.axe_setup import axe_ready
from tests.browser.conftest import MAINTAINER, RunningApp, page_maker, start_app, stop_app
from tests.browser.helpers import LONG_MS, open_tab, scored, sign_in, upload
from tests.browser.submitter_helpers import (
    RECORD_ANNOUNCEMENTS,
    empty_files,
    focused,
    in_viewport,
    screenshot,
    upload_folder,
)
from tests.hardening.web import web_api
from tests.service_fixtures import DECLARED

pytestmark = pytest.mark.browser
LAPTOP, PHONE = (1440, 900), (390, 844)
SIZES = pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1440x900", "390x844"])
PUBLISH = "Publish on the leaderboard once a maintainer approves (test split only)"
TEST_SPLIT = "Test: hidden ground truth, for the leaderboard"


def environ(folder: Path, private: Path, public: Path, **extra: str) -> dict[str, str]:
    return {
        "LEADERBOARD_HOME": str(folder / "home"),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
        **extra,
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> dict[str, Path]:
    private, public = browser_datasets
    folder = tmp_path_factory.mktemp("submitter-files")
    made = {}
    for name, dataset, split, seed in (
        ("validation", public, "validation", 0),
        ("test-1", private, "test", 21),
        ("test-2", private, "test", 22),
        ("test-3", private, "test", 23),
    ):
        made[name] = folder / f"{name}.tsv"
        write_example(load_answer_key(dataset, split, folder / "cache"), "noisy", made[name], seed=seed)
    made["comma"] = folder / "comma.csv"
    made["comma"].write_text('sample_id,embodiment,trace\nval_0000,Human,"[[1, 2], [3, 4]]"\n', "utf-8")
    return made


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path], files) -> Iterator[tuple]:
    """The app, and wendy's two test entries: the first on the board, the second withheld (ladder policy)."""
    folder = tmp_path_factory.mktemp("submitter-app")
    private, public = browser_datasets
    service = Leaderboard(Settings.from_env(environ(folder, private, public, LEADERBOARD_RELEASE_POLICY="ladder")))
    meta = {"model": "Wendy-Nav", "contact_email": "w@example.org"}
    first = service.submit(files["test-1"], split="test", user="wendy", metadata=meta, publish=True,
                           declarations=DECLARED).submission_id  # fmt: skip
    service.worker.drain()
    service.approve(first, MAINTAINER)
    lines = files["test-1"].read_bytes().splitlines(keepends=True)
    again = service.submit(b"".join(lines[:1] + lines[3:]), split="test", user="wendy", metadata=meta, publish=True,
                           filename="again.tsv", declarations=DECLARED).submission_id  # fmt: skip
    service.worker.drain()
    assert not service.status(again).released
    app = start_app(folder, private, public)
    yield app, {"first": first, "withheld": again}
    stop_app(app)


@pytest.fixture
def app(seeded) -> RunningApp:
    return seeded[0]


@pytest.fixture
def page_at(chromium, app: RunningApp, request: pytest.FixtureRequest):
    """``page_at(size)``: a page of that viewport in a fresh context; the page's announcements are recorded."""
    makers = page_maker(chromium, app, request)
    make = next(makers)

    def sized(size: tuple[int, int]) -> Page:
        page = make()
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.context.add_init_script(RECORD_ANNOUNCEMENTS)
        return page

    yield sized
    next(makers, None)


def service_of(app: RunningApp) -> Leaderboard:
    return Leaderboard(Settings.from_env(environ(app.home.parent, app.private, app.public)))


# -- 1 and 14: a refused file leaves the box, its reason stays, and no empty file is left on the server ---------


@SIZES
def test_a_refused_file_leaves_the_box_and_its_reason_stays(page_at, app: RunningApp, files, size):
    page = page_at(size)
    sign_in(page, app.url, f"rita{size[0]}")
    open_tab(page, "Submit")
    upload(page, "submit-file", files["comma"])
    report = page.locator("#validation-report")
    reason = "the file is not tab-separated (write it with to_csv(sep='\\t', index=False))"
    expect(report).to_contain_text(reason, timeout=LONG_MS)
    expect(report).to_contain_text("The file was taken off the form: fix it and upload it again.")
    expect(page.locator("#submit-file")).not_to_contain_text("comma.csv")  # the box is empty, ready for the next
    in_viewport(page, "#validation-report")
    assert focused(page) == "DIV validation-report"  # focus follows the answer, never left on <body>
    screenshot(page, f"1-refused-file-{size[0]}")
    check = page.get_by_role("button", name="1 · Check the file")
    check.scroll_into_view_if_needed()
    check.click()
    expect(page.locator("#submit-why")).to_contain_text("Submit is off until your file has passed the check")
    expect(report).to_contain_text(reason)  # the precise reason, not "no longer on the server"
    expect(report).not_to_contain_text("no longer on the server")
    assert empty_files(upload_folder(app)) == [], "empty temporary files left in Gradio's upload folder"


def test_checks_and_submissions_leave_no_empty_file_in_the_upload_folder(page_at, app: RunningApp, files):
    page = page_at(LAPTOP)
    sign_in(page, app.url, "tess")
    open_tab(page, "Submit")
    for _ in range(2):
        upload(page, "submit-file", files["comma"])
        expect(page.locator("#validation-report")).to_contain_text("not tab-separated", timeout=LONG_MS)
    upload(page, "submit-file", files["validation"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill("Tess-Nav")
    page.get_by_role("button", name="2 · Submit").click()
    expect(page.locator("#submit-receipt")).to_contain_text("Submitted:", timeout=LONG_MS)
    folder = upload_folder(app)
    assert empty_files(folder) == []
    assert not [p for p in folder.rglob("*.csv")], "a refused upload stayed"


# -- 9: one answer, in the words on the screen, at the field it is about ---------------------------------------


@SIZES
def test_a_missing_model_name_is_marked_at_its_field_and_nothing_says_ready(page_at, app: RunningApp, files, size):
    page = page_at(size)
    sign_in(page, app.url, f"nemo{size[0]}")
    open_tab(page, "Submit")
    upload(page, "submit-file", files["validation"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    expect(page.locator("#submit-why")).to_contain_text("Ready")
    button = page.get_by_role("button", name="2 · Submit")
    button.scroll_into_view_if_needed()
    button.click()
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("Not submitted: Model name is required", timeout=LONG_MS)
    expect(page.locator("#submit-why")).not_to_contain_text("Ready")  # no green "Ready" under the refusal
    field = page.locator("#meta-model")
    expect(field).to_have_class(re.compile(r"\bnt-invalid\b"))
    expect(field.get_by_label("Model name (required)")).to_have_attribute("aria-invalid", "true")
    expect(field.locator(".nt-field-error")).to_contain_text("Model name is required")
    in_viewport(page, "#meta-model")  # the field it is about, brought into view, with the cursor in it
    assert focused(page).endswith("meta-model")
    screenshot(page, f"9-model-required-{size[0]}")


@SIZES
def test_missing_declarations_are_named_by_their_questions(page_at, app: RunningApp, files, size):
    page = page_at(size)
    sign_in(page, app.url, f"quin{size[0]}")
    open_tab(page, "Submit")
    page.get_by_label(TEST_SPLIT).check()
    upload(page, "submit-file", files["test-2"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill(f"Quin-{size[0]}")
    page.get_by_label(PUBLISH).check()
    box = page.locator("#declarations")
    expect(box).to_be_visible()
    best_of = box.get_by_label(BEST_OF_LABEL)
    assert best_of.get_attribute("placeholder") != "1", "a grey 1 reads as an answer given"
    button = page.get_by_role("button", name="2 · Submit")
    button.scroll_into_view_if_needed()
    button.click()
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("needs these questions answered", timeout=LONG_MS)
    for label in (TRAINED_LABEL, BEYOND_LABEL, BEST_OF_LABEL):
        expect(receipt).to_contain_text(label)
    for key in ("trained_on", "test_images_beyond_inference", "best_of"):
        expect(receipt).not_to_contain_text(key)
    for elem_id in ("decl-trained", "decl-beyond", "decl-best-of"):
        expect(page.locator(f"#{elem_id}")).to_have_class(re.compile(r"\bnt-invalid\b"))
    in_viewport(page, "#decl-trained")
    assert focused(page).endswith("decl-trained")
    expect(page.locator("#submit-why")).not_to_contain_text("Ready")
    screenshot(page, f"9-declarations-{size[0]}")


# -- 10: no Hub opt-in where no pull request would be opened ---------------------------------------------------


@SIZES
def test_the_hub_opt_in_is_not_offered_without_the_hub_benchmark(page_at, app: RunningApp, size):
    page = page_at(size)
    sign_in(page, app.url, f"hugo{size[0]}")
    open_tab(page, "Submit")
    page.get_by_label(TEST_SPLIT).check()
    page.get_by_label(PUBLISH).check()
    box = page.locator("#declarations")
    expect(box).to_be_visible()
    expect(page.get_by_label("Share this result on the model's Hub page")).to_have_count(0)
    expect(box).not_to_contain_text("pull request")
    box.scroll_into_view_if_needed()
    screenshot(page, f"10-no-hub-opt-in-{size[0]}")


# -- 11: focus, announcements, a skip link, dropdowns that open when asked ------------------------------------


def test_nothing_announces_a_raw_translation_key(page_at, app: RunningApp, files):
    page = page_at(LAPTOP)
    sign_in(page, app.url, "ann")
    open_tab(page, "Submit")
    upload(page, "submit-file", files["validation"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    open_tab(page, "Explorer")
    expect(page.locator("#explorer-task")).to_contain_text("Task:", timeout=LONG_MS)
    announced = page.evaluate("window.__announced")
    assert announced, "nothing was announced at all"
    assert not [text for text in announced if "common." in text], announced


@SIZES
def test_a_skip_link_is_the_first_tab_stop_and_leads_to_the_tab(page_at, app: RunningApp, size):
    page = page_at(size)
    sign_in(page, app.url, f"kim{size[0]}")
    open_tab(page, "Submit")
    page.reload()
    page.locator("#nt-skip-work").wait_for(state="attached")
    page.keyboard.press("Tab")
    link = page.locator("#nt-skip-work")
    expect(link).to_be_focused()
    expect(link).to_have_text("Skip to the content")
    in_viewport(page, "#nt-skip-work")  # visible once focused
    screenshot(page, f"11-skip-link-{size[0]}")
    page.keyboard.press("Enter")
    expect(page.locator("#tab-submit")).to_be_focused()


def test_explorer_dropdowns_open_when_asked_and_close_when_left(page_at, app: RunningApp):
    page = page_at(LAPTOP)
    sign_in(page, app.url, "dora")
    open_tab(page, "Explorer")
    expect(page.locator("#explorer-task")).to_contain_text("Task:", timeout=LONG_MS)
    first = page.get_by_label("Your validation submission (optional)")
    first.focus()
    sample = page.get_by_label("Sample")
    for _ in range(3):  # through the submission, sample and embodiment dropdowns by keyboard
        page.keyboard.press("Tab")
        expect(page.locator("input[role=combobox][aria-expanded=true]")).to_have_count(0)
    sample.focus()
    expect(sample).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("ArrowDown")  # asked for: the list opens
    expect(sample).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")  # and closes when focus leaves
    expect(sample).to_have_attribute("aria-expanded", "false")
    sample.click()  # a click opens it too, and an option can be picked
    page.get_by_role("option").nth(1).click()
    expect(page.locator("#explorer-task")).to_contain_text("Task:")
    screenshot(page, "11-explorer-dropdown-1440")


# -- 7 and 8: the public entry, chosen knowingly; only actions that can work ----------------------------------


@SIZES
def test_choosing_a_public_entry_names_what_leaves_the_board_first(page_at, app: RunningApp, files, size):
    service = service_of(app)
    user, ids = f"alma{size[0]}", {}
    for name, model, publish in (("test-1", "Alma-Nav", True), ("test-2", "Alma-Nav-v2", True),
                                 ("test-3", "Alma-Nav", False)):  # fmt: skip
        ids[name] = service.submit(files[name], split="test", user=user, metadata={"model": model,
                                   "contact_email": "a@example.org"}, publish=publish,
                                   declarations=DECLARED).submission_id  # fmt: skip
        scored(service, ids[name])
    service.approve(ids["test-1"], MAINTAINER)
    page = page_at(size)
    sign_in(page, app.url, user)
    open_tab(page, "My submissions")
    row = page.locator(f"#my-submissions-table tr[data-id='{ids['test-3']}']")
    expect(row).to_contain_text("FINISHED")
    row.click()
    expect(page.locator("#my-detail")).to_contain_text(ids["test-3"])
    choose = page.get_by_role("button", name="Make this my public entry")
    choose.scroll_into_view_if_needed()
    choose.click()
    note = page.locator("#my-action-note")
    expect(note).to_contain_text(f"Alma-Nav-v2 ({ids['test-2']}, awaiting approval)")
    expect(note).to_contain_text(f"Alma-Nav ({ids['test-1']}, on the leaderboard)")
    in_viewport(page, "#my-action-note")
    board = {r["submission_id"] for r in service.public_table()}
    assert ids["test-1"] in board, "an entry left the board before the user confirmed"
    assert service.status(ids["test-2"]).publish, "the other model was withdrawn without a confirmation"
    screenshot(page, f"7-choose-warning-{size[0]}")
    page.get_by_role("button", name="Yes: make it public, withdraw the others").click()
    expect(note).to_contain_text(f"{ids['test-3']} is your public entry")
    in_viewport(page, "#my-action-note")
    assert not service.status(ids["test-2"]).publish and service.status(ids["test-3"]).publish


def test_a_withheld_entry_offers_no_action_that_cannot_work(page_at, app: RunningApp, seeded):
    ids = seeded[1]
    page = page_at(PHONE)
    sign_in(page, app.url, "wendy")
    open_tab(page, "My submissions")
    row = page.locator(f"#my-submissions-table tr[data-id='{ids['withheld']}']")
    expect(row).to_contain_text("not a significant improvement over your best")
    row.click()
    expect(page.locator("#my-detail")).to_contain_text("not released (ladder policy)")
    expect(page.get_by_role("button", name="Download the file I sent")).to_be_visible()
    expect(page.get_by_role("button", name="Make this my public entry")).to_be_hidden()
    expect(page.get_by_role("button", name="Withdraw from the leaderboard")).to_be_hidden()
    page.locator("#my-actions").scroll_into_view_if_needed()
    screenshot(page, "8-withheld-actions-390")
    page.locator(f"#my-submissions-table tr[data-id='{ids['first']}']").click()  # the public one: withdraw works
    expect(page.get_by_role("button", name="Withdraw from the leaderboard")).to_be_visible()


# -- 13b: on a phone, two rows of one model can be told apart ------------------------------------------------


def test_on_a_phone_two_rows_of_one_model_differ_on_screen(page_at, app: RunningApp, files):
    service = service_of(app)
    ids = []
    for name, split in (("validation", "validation"), ("test-2", "test")):
        meta = {"model": "Twin-Nav", "contact_email": "t@example.org"}
        ids.append(service.submit(files[name], split=split, user="twin", metadata=meta).submission_id)
        scored(service, ids[-1])
    page = page_at(PHONE)
    sign_in(page, app.url, "twin")
    open_tab(page, "My submissions")
    seen = []
    for submission_id in ids:
        cell = page.locator(f"#my-submissions-table tr[data-id='{submission_id}'] td").first
        expect(cell).to_contain_text("Twin-Nav")
        cell.scroll_into_view_if_needed()
        box, size = cell.bounding_box(), page.viewport_size
        assert box and size and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        seen.append(cell.inner_text())
        expect(cell).to_contain_text(submission_id[:6])
    assert seen[0] != seen[1], seen
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#my-submissions-table").scroll_into_view_if_needed()
    screenshot(page, "13b-my-submissions-390")


# -- each user's upload is their own ------------------------------------------------------------------------


def test_bobs_refused_check_of_the_same_file_leaves_alices_submission(app: RunningApp, files):
    alice, bob = web_api.sign_in(app.url, "alix"), web_api.sign_in(app.url, "bobby")
    hers = web_api.upload(app.url, files["validation"], alice)
    assert "You can submit this file" in web_api.call(app.url, "check_file", [hers, "validation"], alice).text
    his = web_api.upload(app.url, files["validation"], bob)
    assert his["path"] == hers["path"]  # stored by content: the same path
    refused = web_api.call(app.url, "check_file", [his, "test"], bob)  # a validation file for the test split
    assert "This file cannot be submitted" in refused.text
    fields = [hers, "validation", "Alix-Nav", "", "", "", "", "", "", "", False, None, None, "", None, False]
    answer = web_api.call(app.url, "submit", fields, alice)
    assert answer.ok and "Submitted:" in answer.text, answer.text[-600:]


# -- axe-core on the three tabs at 1440x900: no critical or serious violation --------------------------------


def test_axe_finds_no_critical_or_serious_violation_on_the_submitter_tabs(chromium, app: RunningApp, files):
    from benchmarks.pages.audits import axe

    axe_ready()
    service = service_of(app)
    meta = {"model": "Axe-Nav", "contact_email": "x@example.org"}
    scored(service, service.submit(files["validation"], split="validation", user="axel", metadata=meta).submission_id)
    # Reduced motion: a button still fading between two colours is measured as it will end (as on the desk's test).
    context = chromium.new_context(viewport={"width": 1440, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        sign_in(page, app.url, "axel")
        found = {}
        for tab, ready in (
            ("Submit", "#quota"),
            ("My submissions", "#my-submissions-table"),
            ("Explorer", "#nt-legend"),
        ):
            open_tab(page, tab)
            expect(page.locator(ready if tab != "Explorer" else "#explorer-task")).to_contain_text(
                re.compile(r"\S"), timeout=LONG_MS
            )
            if tab == "Explorer":  # drawn, and no output dimmed while an event runs (a dimmed text fails contrast)
                expect(page.locator("#explorer-image img")).to_be_visible(timeout=LONG_MS)
                expect(page.locator("#tab-explorer").get_by_text(re.compile(r"processing \|"))).to_have_count(0)
            page.wait_for_function("() => !document.querySelector('.pending, .generating')", timeout=LONG_MS)
            run = axe(tab, page)
            found[tab] = [(v["impact"], v["id"], v["targets"]) for v in run.violations]
            print(f"axe {tab} at 1440x900: rules {run.rules}, nodes {run.nodes}")
        bad = {tab: [v for v in found[tab] if v[0] in ("critical", "serious")] for tab in found}
        assert not any(bad.values()), bad
    finally:
        context.close()
