"""The Explorer as a researcher sees it, at the sizes where a defect was seen.

Its own app on images of the real size (1440x1080: the defect was a red photo and figures below
the fold on those), with one scored validation submission of ``alice`` made through the service.
Each test asserts what is inside the viewport, after the clicks a person makes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from space.explorer.picture import CHARGED, PENALTY, PENALTY_BANDS, PREDICTION, TRUTH, TRUTH_OTHER
from synthetic import write_demo_dataset
from tests.browser.conftest import RunningApp, page_maker, shot, start_app, stop_app
from tests.browser.helpers import LONG_MS, choose, coloured_pixels, open_tab, picture_drawn, scored, scrolled, sign_in

pytestmark = pytest.mark.browser
DESKTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
USER = "alice"


@pytest.fixture(scope="module")
def explorer_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningApp, str]]:
    """The app on 3 scenes at 1440x1080, and the id of alice's scored validation submission."""
    folder = tmp_path_factory.mktemp("explorer-app")
    private = write_demo_dataset(folder / "navitrace", samples=3, size=(1440, 1080))
    public = write_demo_dataset(folder / "navitrace-public", samples=3, size=(1440, 1080), public=True)
    app = start_app(folder, private, public)
    try:
        file = folder / "validation.tsv"
        write_example(load_answer_key(public, "validation", folder / "cache"), "noisy", file)
        env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public)}
        service = Leaderboard(Settings.from_env(env))
        submission_id = service.submit(file, split="validation", user=USER, metadata={"model": "Explorer-VLM"})
        scored(service, submission_id.submission_id)
        yield app, submission_id.submission_id
    finally:
        stop_app(app)


@pytest.fixture
def new_page(chromium, explorer_app, request: pytest.FixtureRequest):
    yield from page_maker(chromium, explorer_app[0], request)


def open_explorer_row(page: Page, app: RunningApp, submission_id: str) -> None:
    """Sign in on the board, open the Explorer from the header (the signed-in page opens on that tab, on a phone
    too), pick the submission's worst row."""
    sign_in(page, app.url, USER)
    open_tab(page, "Explorer")
    expect(page).to_have_url(f"{app.url}/submit/?tab=explorer")
    choose(page, "Your validation submission (optional)", re.compile(submission_id))
    expect(page.get_by_label("Row of that submission (worst first)")).to_be_visible()
    settled(page)
    page.get_by_label("Row of that submission (worst first)").click()
    option = page.get_by_role("option", name=re.compile(r"val_\d+")).first
    sample, embodiment = option.inner_text().split(" · ")[:2]
    option.click()
    # Drawn for that row: the next click must not race this one (its inputs would be the old row's).
    expect(page.locator("#explorer-embodiment input")).to_have_value(embodiment, timeout=LONG_MS)
    alt = re.compile(f"^Validation image {sample} .* for a {embodiment}:")
    expect(page.locator("#explorer-image img")).to_have_attribute("alt", alt, timeout=LONG_MS)
    settled(page)


def settled(page: Page) -> None:
    """The picture and the figures of the last pick are drawn (no event still running)."""
    expect(page.locator("#explorer-breakdown")).to_contain_text("Row score", timeout=LONG_MS)
    busy = page.locator("#tab-explorer").get_by_text(re.compile(r"processing \|"))
    expect(busy).to_have_count(0, timeout=LONG_MS)
    picture_drawn(page, "#explorer-image img")


def in_viewport(page: Page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not rendered"
    view = page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, f"{selector} is cut off sideways: {box}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], f"{selector} is not in the first screen: {box}"
    return box


def red_share(png: bytes) -> float:
    """Share of the picture's pixels that the penalty fill would tint: clearly redder than they are anything else."""
    from io import BytesIO

    from PIL import Image

    pixels = np.asarray(Image.open(BytesIO(png)).convert("RGB"), dtype=np.int16)
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return float(((red - np.maximum(green, blue)) > 60).mean())


def test_figures_are_above_the_fold_beside_the_picture_at_1440(new_page, explorer_app):
    app, submission_id = explorer_app
    page = new_page()
    page.set_viewport_size(DESKTOP)
    open_explorer_row(page, app, submission_id)
    page.evaluate("window.scrollTo(0, 0)")
    scrolled(page)
    components = in_viewport(page, "#explorer-components")  # DTW, FDE, Penalty, raw: the whole table
    for name in ("DTW", "FDE", "Penalty", "raw"):
        expect(page.locator("#explorer-components")).to_contain_text(name)
    formula = page.locator("#explorer-breakdown code", has_text="score = (B − raw) / B × 100")
    expect(formula).to_be_visible()
    in_viewport(page, "#explorer-breakdown code")
    image = page.locator("#explorer-image img").bounding_box()
    controls = page.locator("#explorer-submission").bounding_box()
    assert image and controls
    assert components["x"] > controls["x"] + controls["width"], "the figures are beside the controls"
    assert image["y"] < DESKTOP["height"], "the picture starts in the first screen, under its figures"
    shot(page, "explorer-1440")


def test_the_photo_is_not_tinted_red_by_default_and_the_fill_is_one_click_away(new_page, explorer_app):
    app, submission_id = explorer_app
    page = new_page()
    page.set_viewport_size(DESKTOP)
    open_explorer_row(page, app, submission_id)
    image = page.locator("#explorer-image img")
    image.scroll_into_view_if_needed()
    by_default = image.screenshot()
    assert red_share(by_default) < 0.05, "the default picture is tinted red"
    assert coloured_pixels(by_default, PENALTY, tolerance=30) > 50, "no penalty region edge drawn"
    assert coloured_pixels(by_default, PREDICTION, tolerance=30) > 30, "no predicted trace drawn"
    legend = page.locator("#explorer-legend")
    expect(legend).to_contain_text("penalty region edge")
    expect(legend).not_to_contain_text("high (480–800)")

    page.get_by_label("Penalty regions filled (by cost)").check()
    expect(legend).to_contain_text("penalty region, high (480–800)", timeout=LONG_MS)  # the darkest band, named
    settled(page)
    image.scroll_into_view_if_needed()
    filled = image.screenshot()
    assert red_share(filled) > red_share(by_default) + 0.2, "the fill did not tint the penalty regions"
    shot(page, "explorer-1440-filled")


def test_every_colour_drawn_is_in_the_legend(new_page, explorer_app):
    app, submission_id = explorer_app
    page = new_page()
    page.set_viewport_size(DESKTOP)
    open_explorer_row(page, app, submission_id)
    page.get_by_label("Penalty regions filled (by cost)").check()
    legend = page.locator("#explorer-legend")
    expect(legend).to_contain_text("penalty region, high (480–800)", timeout=LONG_MS)
    settled(page)
    legend.scroll_into_view_if_needed()
    in_viewport(page, "#explorer-legend")
    styles = (
        "e => [getComputedStyle(e).backgroundImage, getComputedStyle(e).backgroundColor, getComputedStyle(e).boxShadow]"
    )
    text = " ".join(" ".join(s) for s in legend.locator("i").evaluate_all(f"els => els.map({styles})"))
    for colour in (TRUTH, TRUTH_OTHER, PREDICTION, CHARGED, PENALTY):
        assert f"{colour[0]}, {colour[1]}, {colour[2]}" in text, f"rgb{colour} has no swatch in the legend"
    for _, opacity, label in PENALTY_BANDS:
        assert f"rgba(220, 38, 38, {round(opacity / 255, 2):g})" in text, f"the band {label} has no swatch"
        expect(legend).to_contain_text(label)
    expect(legend).to_contain_text("no tint: no penalty")
    expect(legend).to_contain_text("hollow dot: start · filled dot: goal")


def test_the_picture_has_alt_text_saying_what_it_shows(new_page, explorer_app):
    app, submission_id = explorer_app
    page = new_page()
    page.set_viewport_size(DESKTOP)
    open_explorer_row(page, app, submission_id)
    alt = page.locator("#explorer-image img").get_attribute("alt") or ""
    sample = page.locator("#explorer-sample input").input_value().split(" · ")[0]
    embodiment = page.locator("#explorer-embodiment input").input_value()
    assert alt.startswith(f"Validation image {sample} (1440×1080 px) for a {embodiment}: "), alt
    assert "in green" in alt and "The predicted trace of" in alt and "outlined in red" in alt, alt
    page.get_by_label("Predicted trace", exact=True).uncheck()
    settled(page)  # it says what is drawn now:
    expect(page.locator("#explorer-image img")).not_to_have_attribute("alt", re.compile("predicted"), timeout=LONG_MS)
    expect(page.locator("#explorer-image img")).to_have_attribute("alt", re.compile(r"^Validation image .* in green"))


def test_figures_are_readable_on_a_phone(new_page, explorer_app):
    app, submission_id = explorer_app
    page = new_page()
    page.set_viewport_size(PHONE)
    open_explorer_row(page, app, submission_id)
    page.locator("#explorer-components").scroll_into_view_if_needed()
    scrolled(page)
    in_viewport(page, "#explorer-components")  # the whole table, not cut at the right edge
    hidden = page.locator("#explorer-components").evaluate(
        "t => t.parentElement.scrollWidth - t.parentElement.clientWidth"
    )
    assert hidden <= 1, f"{hidden}px of the figures hide behind a sideways scroll"
    for i in range(page.locator("#explorer-components th").count()):  # "what it measures" too
        in_viewport(page, f"#explorer-components th >> nth={i}")
    size = page.locator("#explorer-components td").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 12, f"table text of {size}px"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"] + 1, f"the page scrolls sideways ({wide}px)"
    shot(page, "explorer-390-figures")
    page.locator("#explorer-image img").scroll_into_view_if_needed()
    box = page.locator("#explorer-image img").bounding_box()
    assert box and box["width"] <= PHONE["width"], box
    shot(page, "explorer-390-picture")


def test_a_stale_choice_draws_the_sample_instead_of_an_error(explorer_app):
    """What the page sends when a layer is ticked while a row pick changes the lists: values the lists no longer
    hold. The event is answered with the sample drawn (its first embodiment), not refused with a bare "Error"."""
    from gradio_client import Client

    app, _ = explorer_app
    sample_id = load_answer_key(app.public, "validation", app.home / "stale-key").samples[0].sample_id
    client = Client(f"{app.url}/submit/", verbose=False, download_files=False, analytics_enabled=False)
    layers = ["Expert traces", "Penalty region edges"]
    image, breakdown, task, legend = client.predict("", sample_id, "No Such Embodiment", layers, api_name="/explore")
    assert image and "Task:" in task and "expert trace" in legend.lower()
