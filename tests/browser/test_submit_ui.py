"""Submitting and following one's submissions, as seen at 1440x900 (a laptop) and 390x844 (a phone).

Each test asserts what the user sees and where: the answer to a click has its top on the screen,
a closed form says why, the quota is told in words before any upload, a clicked row's details are
the ones shown. The submitter's own actions (choose the public entry, withdraw, download the file
sent) are done in the page; a forged call for another user's submission is refused through HTTP.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from space.submit.declarations import BEST_OF_LABEL, BEYOND_LABEL, TRAINED_LABEL
from tests.browser.conftest import MAINTAINER, SHOTS, RunningApp, shot
from tests.browser.helpers import LONG_MS, open_tab, scored, sign_in, upload
from tests.hardening.web import web_api
from tests.service_fixtures import DECLARED

pytestmark = pytest.mark.browser
LAPTOP, PHONE = (1440, 900), (390, 844)
SIZES = pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1440x900", "390x844"])
ISO_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


@pytest.fixture
def page_at(chromium, app: RunningApp, request: pytest.FixtureRequest):
    """``page_at((width, height))`` -> a page in a fresh context of that viewport (its own sign-in)."""
    contexts = []

    def make(size: tuple[int, int]) -> Page:
        context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield make
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        for i, context in enumerate(contexts):
            for page in context.pages:
                shot(page, f"FAILED-{request.node.name}-{i}")
        print(f"--- app log ---\n{app.log_text()[-6000:]}")
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def files(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("submit-ui-files")
    made = {}
    for name, dataset, split, seed in (
        ("validation", app.public, "validation", 0),
        ("validation-2", app.public, "validation", 1),
        ("test-1", app.private, "test", 1),
        ("test-2", app.private, "test", 2),
        ("test-3", app.private, "test", 3),
        ("test-4", app.private, "test", 4),
    ):
        made[name] = folder / f"{name}.tsv"
        write_example(load_answer_key(dataset, split, folder / "cache"), "noisy", made[name], seed=seed)
    return made


def service_of(app: RunningApp) -> Leaderboard:
    """The app's stores seen from this process (as the maintainers' CLI sees them)."""
    env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "MAINTAINERS": MAINTAINER}
    return Leaderboard(Settings.from_env({**env, "PUBLIC_DATASET": str(app.public)}))


TOP_ON_SCREEN = """([sel, h]) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.top < h - 40;
}"""


def top_on_screen(page: Page, selector: str) -> None:
    """The element's top edge is inside the viewport: the user sees the start of it without scrolling."""
    size = page.viewport_size
    assert size is not None
    page.wait_for_function(TOP_ON_SCREEN, arg=[selector, size["height"]], timeout=5_000)
    top = page.evaluate("(sel) => document.querySelector(sel).getBoundingClientRect().top", selector)
    print(f"{selector}: top at {top:.0f} px of a {size['width']}x{size['height']} screen")  # the figure, with -s


def seen(page: Page, name: str) -> None:
    """What is on the screen now (not the whole page): the artifact to look at after a click."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)  # the scroll and the last paint
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def tab(page: Page, name: str) -> None:
    """Open a tab as a person does at this width: from the header's link on a plain page, then from the tab bar
    (or its "More tabs" menu on a phone)."""
    if "/submit/" not in page.url:
        open_tab(page, name)
        return
    page.get_by_role("tab", name="Submit", exact=True).wait_for()  # the tab bar is drawn
    button = page.get_by_role("tab", name=name, exact=True)
    if button.count() and button.is_visible():
        button.click()
        return
    page.get_by_role("button", name="More tabs").click()
    page.locator(".overflow-dropdown button", has_text=name).click()


def on_screen(page: Page, locator) -> None:
    """The element is wholly inside the viewport as it is now: no scrolling, sideways or down."""
    box, size = locator.bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (box, size)


def fill_and_submit(page: Page, model: str) -> None:
    page.get_by_label("Model name (required)").fill(model)
    page.get_by_label("Contact e-mail (private: only maintainers see it)").fill("someone@example.org")
    button = page.get_by_role("button", name="2 · Submit")
    expect(button).to_be_enabled()
    button.scroll_into_view_if_needed()
    button.click()


# -- 2. signed out: the form is closed and says why ------------------------------------------------


@SIZES
def test_signed_out_the_form_is_closed_and_submit_says_why(page_at, app: RunningApp, size):
    page = page_at(size)
    page.goto(app.url)
    tab(page, "Submit")
    expect(page.locator("#quota")).to_contain_text("Sign in at the top to upload, check and submit a file")
    for label in ("Model name (required)", "Organisation", "Contact e-mail (private: only maintainers see it)"):
        expect(page.get_by_label(label)).to_be_disabled()
    expect(page.get_by_role("button", name="2 · Submit")).to_be_disabled()
    expect(page.locator("#submit-why")).to_contain_text("Submit is off: sign in at the top first")
    seen(page, f"submit-signed-out-{size[0]}")
    sign_in(page, app.url, f"sigrid{size[0]}")
    tab(page, "Submit")
    expect(page.get_by_label("Model name (required)")).to_be_enabled()
    expect(page.locator("#submit-why")).to_contain_text("Submit is off until your file has passed the check")


# -- 1. the answer to a click is where the eyes are -------------------------------------------------


@SIZES
def test_the_check_report_and_the_receipt_are_on_screen_after_the_click(page_at, app: RunningApp, files, size):
    page = page_at(size)
    user = f"eyes{size[0]}"
    sign_in(page, app.url, user)
    tab(page, "Submit")
    upload(page, "submit-file", files["validation"])
    report = page.locator("#validation-report")
    expect(report).to_contain_text("You can submit this file", timeout=LONG_MS)
    top_on_screen(page, "#validation-report")
    seen(page, f"submit-report-{size[0]}")
    fill_and_submit(page, f"Eyes-{size[0]}")
    expect(page.locator("#submit-receipt")).to_contain_text("Submitted:", timeout=LONG_MS)
    top_on_screen(page, "#submit-receipt")
    seen(page, f"submit-receipt-{size[0]}")


# -- 3. the quota, in words, before any upload ------------------------------------------------------


def test_the_quota_is_told_in_words_before_upload_and_submit_stays_off(page_at, app: RunningApp, files):
    service = service_of(app)
    for n in (1, 2, 3):
        meta = {"model": f"Quota-{n}", "contact_email": "q@example.org"}
        scored(service, service.submit(files[f"test-{n}"], split="test", user="quinn", metadata=meta).submission_id)
    page = page_at(LAPTOP)
    sign_in(page, app.url, "quinn")
    tab(page, "Submit")
    quota = page.locator("#quota")
    expect(quota).to_contain_text(
        re.compile(r"Test submissions left today: 0 of 3; the next one frees at (\d+ \w{3} )?\d\d:\d\d UTC")
    )
    expect(quota).to_contain_text(re.compile(r"in 2[34] h( \d+ min)?"))
    page.get_by_label("Test: hidden ground truth, for the leaderboard").check()
    note = page.locator("#split-quota")
    expect(note).to_contain_text("No test submissions left today", timeout=LONG_MS)
    top_on_screen(page, "#split-quota")
    upload(page, "submit-file", files["test-4"])
    expect(page.locator("#validation-report")).to_contain_text("Submit is off for the test split", timeout=LONG_MS)
    expect(page.locator("#submit-why")).to_contain_text(
        re.compile(r"Submit is off: no test submissions left today; the next one frees at")
    )
    expect(page.locator("#validation-report")).not_to_contain_text("You can submit this file")
    expect(page.get_by_role("button", name="2 · Submit")).to_be_disabled()
    assert not ISO_STAMP.search(page.locator("#tab-submit").inner_text()), "a raw ISO time stamp on the page"
    seen(page, "submit-quota-1440")


# -- 11. re-sending a file under a new name ---------------------------------------------------------


def test_resending_a_file_with_a_new_name_says_which_name_was_kept(page_at, app: RunningApp, files):
    page = page_at(LAPTOP)
    sign_in(page, app.url, "rene")
    tab(page, "Submit")
    upload(page, "submit-file", files["validation-2"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    fill_and_submit(page, "First-Name")
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("Submitted:", timeout=LONG_MS)
    upload(page, "submit-file", files["validation-2"])  # the input was emptied by the submission: ready for the next
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    fill_and_submit(page, "Second-Name")
    expect(receipt).to_contain_text("You already sent this file", timeout=LONG_MS)
    expect(receipt).to_contain_text("The model name stays 'First-Name', not 'Second-Name'")
    top_on_screen(page, "#submit-receipt")


# -- 9. My submissions: the details follow the picked row --------------------------------------------


def test_a_clicked_or_keyed_row_is_the_one_detailed(page_at, app: RunningApp, files):
    service = service_of(app)
    ids = []
    for name, model in (("validation", "Older-Model"), ("validation-2", "Newer-Model")):
        meta = {"model": model, "contact_email": "m@example.org"}
        ids.append(service.submit(files[name], split="validation", user="mira", metadata=meta).submission_id)
        scored(service, ids[-1])
    older, newer = ids
    page = page_at(LAPTOP)
    sign_in(page, app.url, "mira")
    tab(page, "My submissions")
    detail = page.locator("#my-detail")
    expect(detail).to_contain_text("Newer-Model")  # the newest first
    row = page.locator(f"#my-submissions-table tr[data-id='{older}']")
    row.click()
    expect(detail).to_contain_text("Older-Model")
    expect(row).to_have_attribute("aria-selected", "true")
    expect(page.locator("#my-pick input")).to_have_value(re.compile(older))
    newer_row = page.locator(f"#my-submissions-table tr[data-id='{newer}']")
    newer_row.focus()
    page.keyboard.press("Enter")
    expect(detail).to_contain_text("Newer-Model")
    expect(newer_row).to_have_attribute("aria-selected", "true")
    expect(row).to_have_attribute("aria-selected", "false")
    seen(page, "my-submissions-picked-1440")


def test_on_a_phone_status_and_score_are_on_screen(page_at, app: RunningApp, files):
    service = service_of(app)
    meta = {"model": "A-Rather-Long-Model-Name-For-A-Phone", "contact_email": "p@example.org"}
    submission_id = service.submit(files["validation"], split="validation", user="pia", metadata=meta).submission_id
    scored(service, submission_id)
    page = page_at(PHONE)
    sign_in(page, app.url, "pia")
    tab(page, "My submissions")
    row = page.locator(f"#my-submissions-table tr[data-id='{submission_id}']")
    expect(row).to_contain_text("FINISHED")
    status, score = row.locator("td").nth(1), row.locator("td").nth(2)
    expect(score).to_have_text(re.compile(r"-?\d+\.\d\d"))
    page.evaluate("window.scrollTo(0, 0)")  # as the tab opens: the table starts in the first screen
    on_screen(page, status)
    on_screen(page, score)
    seen(page, "my-submissions-390")


# -- submitters in control ---------------------------------------------------------------------------


def test_i_choose_my_public_entry_withdraw_it_and_download_my_file(page_at, app: RunningApp, files):
    service = service_of(app)
    ids = []
    for n in (1, 2):
        meta = {"model": f"Tara-{n}", "contact_email": "t@example.org"}
        ids.append(
            service.submit(
                files[f"test-{n}"], split="test", user="tara", metadata=meta, publish=True, declarations=DECLARED
            )
        )
        scored(service, ids[-1].submission_id)
        service.approve(ids[-1].submission_id, MAINTAINER)
    first, second = (r.submission_id for r in ids)
    page = page_at(LAPTOP)
    sign_in(page, app.url, "tara")
    tab(page, "My submissions")
    expect(page.locator(f"#my-submissions-table tr[data-id='{second}']")).to_contain_text("FINISHED")
    page.locator(f"#my-submissions-table tr[data-id='{first}']").click()
    expect(page.locator("#my-detail")).to_contain_text("Tara-1")
    page.get_by_role("button", name="Make this my public entry").click()
    done = page.locator("#my-action-note")
    expect(done).to_contain_text(f"withdraws your other entries asking to be on the board: Tara-2 ({second}")
    assert second in {r["submission_id"] for r in service.public_table()}  # nothing done before the confirmation
    page.get_by_role("button", name="Yes: make it public, withdraw the others").click()
    expect(done).to_contain_text(f"{first} is your public entry (on the leaderboard). Off the board now: {second}")
    top_on_screen(page, "#my-action-note")
    expect(page.locator(f"#my-submissions-table tr[data-id='{second}']")).to_contain_text("withdrawn by you")
    board = {r["submission_id"] for r in service.public_table()}
    assert first in board and second not in board

    with page.expect_download() as sent:
        page.get_by_role("button", name="Download the file I sent").click()
    assert Path(sent.value.path()).read_bytes() == files["test-1"].read_bytes()

    page.get_by_role("button", name="Withdraw from the leaderboard").click()
    expect(done).to_contain_text(f"{first} is withdrawn: it has left the leaderboard")
    assert first not in {r["submission_id"] for r in service.public_table()}
    assert [e["action"] for e in service.audit_log(MAINTAINER, first)][-1] == "withdraw"
    seen(page, "my-submissions-withdrawn-1440")


def test_a_forged_call_for_another_users_submission_is_refused_over_http(app: RunningApp, files):
    """The page's own endpoints, called with raw HTTP: another user's id is refused, the owner's works."""
    service = service_of(app)
    meta = {"model": "Victim-Entry", "contact_email": "v@example.org"}
    victim = service.submit(
        files["test-3"], split="test", user="victor", metadata=meta, publish=True, declarations=DECLARED
    ).submission_id
    scored(service, victim)
    service.approve(victim, MAINTAINER)
    mallet = web_api.sign_in(app.url, "mallet")
    assert web_api.call(app.url, "refresh", [None, None], mallet, "mallet-page").ok  # her own list: empty
    for name in ("withdraw", "choose_public", "cancel"):
        for session in ("mallet-page", None):
            answer = web_api.call(app.url, name, [victim, ""], mallet, session)
            # Refused twice over: the id is not among the caller's own choices, and the service checks the owner.
            refused = not answer.ok or "belongs to another user" in answer.text
            assert refused and "is withdrawn" not in answer.text, (name, answer.text[:400])
    anonymous = web_api.call(app.url, "withdraw", [victim, ""], None, "nobody-page")
    assert not anonymous.ok and re.search("Sign in|not in the list of choices", anonymous.text), anonymous.text[:400]
    assert victim in {r["submission_id"] for r in service.public_table()}
    assert [e["action"] for e in service.audit_log(MAINTAINER, victim)] == ["submit", "finished", "approve"]

    victor = web_api.sign_in(app.url, "victor")  # the same call by the owner goes through
    assert web_api.call(app.url, "refresh", [None, None], victor, "victor-page").ok
    answer = web_api.call(app.url, "withdraw", [victim, ""], victor, "victor-page")
    assert answer.ok and f"{victim} is withdrawn" in answer.text, answer.text[:400]
    assert victim not in {r["submission_id"] for r in service.public_table()}
    assert [e["who"] for e in service.audit_log(MAINTAINER, victim)][-1] == "victor"


# -- 10. About: example files are downloads, with nothing to remove ---------------------------------


@SIZES
def test_about_example_files_are_plain_downloads(page_at, app: RunningApp, size):
    page = page_at(size)
    page.goto(app.url)
    tab(page, "About")
    expect(page).to_have_url(f"{app.url}/about")  # a plain page of its own
    examples = page.locator("#about-examples")
    link = examples.get_by_role("link", name=re.compile(r"example_validation_noisy\.tsv"))
    for _ in range(LONG_MS // 1000):  # the first start makes the files; the page says so until then
        if link.count():
            break
        page.wait_for_timeout(1000)
        page.reload()
    expect(link).to_be_visible()
    expect(link).to_have_attribute("download", "")
    expect(examples.get_by_role("button")).to_have_count(0)  # nothing to remove, no upload widget
    expect(examples).not_to_contain_text("×")
    with page.expect_download() as got:
        link.click()
    assert got.value.suggested_filename == "example_validation_noisy.tsv"
    assert Path(got.value.path()).read_text().startswith("sample_id")
    examples.scroll_into_view_if_needed()
    seen(page, f"about-examples-{size[0]}")


# -- a public test entry declares how it was obtained ------------------------------------------------


@SIZES
def test_a_public_test_entry_is_asked_its_declarations_and_refused_without_them(page_at, app: RunningApp, files, size):
    page = page_at(size)
    user = f"declan{size[0]}"
    sign_in(page, app.url, user)
    tab(page, "Submit")
    page.get_by_label("Test: hidden ground truth, for the leaderboard").check()
    expect(page.locator("#declarations")).to_be_hidden()  # a private test score asks nothing
    upload(page, "submit-file", files["test-4"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Publish on the leaderboard once a maintainer approves (test split only)").check()
    box = page.locator("#declarations")
    expect(box).to_be_visible()
    expect(box).not_to_contain_text("pull request")  # no Hub benchmark configured here: no Hub opt-in offered
    fill_and_submit(page, f"Declan-{size[0]}")
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("needs these questions answered", timeout=LONG_MS)
    for label in (TRAINED_LABEL, BEYOND_LABEL, BEST_OF_LABEL):
        expect(receipt).to_contain_text(label)
    expect(receipt).not_to_contain_text("trained_on")
    top_on_screen(page, "#submit-receipt")
    seen(page, f"submit-declarations-missing-{size[0]}")
    box.locator("#decl-trained").get_by_label("Yes, on the validation split").check()
    box.locator("#decl-beyond").get_by_label("No", exact=True).check()
    box.get_by_label(BEST_OF_LABEL).fill("3")
    button = page.get_by_role("button", name="2 · Submit")
    button.scroll_into_view_if_needed()
    button.click()
    expect(receipt).to_contain_text("Submitted:", timeout=LONG_MS)
    submission_id = receipt.locator(".nt-id").inner_text().strip()
    declared = service_of(app).registry.request(submission_id).declarations
    assert declared is not None
    assert (declared.trained_on, declared.test_images_beyond_inference, declared.best_of, declared.share_on_hub) == (
        "validation",
        False,
        3,
        False,
    )
