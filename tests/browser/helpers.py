"""Driving the pages like a person: sign in, open a tab, upload, pick from a dropdown, wait for text."""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from space.tabs.submit_declarations import BEST_OF_LABEL

LONG_MS = 90_000  # scoring in the background: a few seconds here, generous for a busy CI machine


WORKSPACE = {"Submit": "submit", "My submissions": "mine", "Explorer": "explorer"}  # the Gradio page's tabs


def sign_in(page: Page, url: str, user: str) -> None:
    """The local sign-in in the header of the board (a plain page); the browser comes back to the board."""
    page.goto(url)
    page.get_by_label("User name (local sign-in)").fill(user)
    page.get_by_role("button", name="Sign in locally").click()
    expect(page.locator("#identity")).to_contain_text(f"Signed in as {user}")


def open_tab(page: Page, name: str) -> None:
    """Submit, My submissions and the Explorer are tabs of the signed-in Gradio page (``/submit/``): reached
    by the header's link from any other page, then by the tab; the Leaderboard and About are plain pages."""
    if name in WORKSPACE:
        if "/submit/" not in page.url:
            page.locator("#nt-nav").get_by_role("link", name=name, exact=True).click()
            # The Gradio page boots and selects the tab the address names: slower than a plain page on a busy machine.
            expect(page.get_by_role("tab", name=name, exact=True)).to_have_attribute(
                "aria-selected", "true", timeout=LONG_MS
            )
            return
        page.get_by_role("tab", name=name, exact=True).click()
        return
    page.locator("#nt-nav").get_by_role("link", name=name, exact=True).click()


def open_desk(page: Page) -> None:
    """Go to the maintainers' desk (a page of its own) the way a maintainer does: the header's link."""
    page.get_by_role("link", name="Maintainers' desk").click()
    expect(page.locator("#tab-maintainers")).to_be_visible()


def choose(page: Page, label: str, option: str | re.Pattern) -> None:
    """Pick the option of a Gradio dropdown found by its label (type to filter, click the option)."""
    box = page.get_by_label(label)
    box.click()
    page.get_by_role("option", name=option).first.click()


def upload(page: Page, elem_id: str, path: Path) -> None:
    page.locator(f"#{elem_id} input[type=file]").set_input_files(str(path))


def submit_file(page: Page, path: Path, model: str, *, test: bool = False, publish: bool = False) -> str:
    """Upload, check, fill the metadata and submit on the Submit tab; the submission id."""
    open_tab(page, "Submit")
    if test:
        page.get_by_label("Test: hidden ground truth, for the leaderboard").check()
    upload(page, "submit-file", path)
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill(model)
    page.get_by_label("Contact e-mail (private: only maintainers see it)").fill(f"{model.lower()}@example.org")
    if publish:
        box = page.get_by_label("Publish on the leaderboard once a maintainer approves (test split only)")
        expect(box).to_be_enabled()
        box.check()
        if test:
            declare(page)
    button = page.get_by_role("button", name="2 · Submit")
    expect(button).to_be_enabled()
    button.click()
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("Submitted:", timeout=LONG_MS)
    return receipt.locator(".nt-id").inner_text().strip()


def declare(page: Page, best_of: int = 1) -> None:
    """Answer the declarations a public test entry needs (shown once test and publish are chosen)."""
    expect(page.locator("#declarations")).to_be_visible()
    page.locator("#decl-trained").get_by_label("No", exact=True).check()
    page.locator("#decl-beyond").get_by_label("No", exact=True).check()
    page.get_by_label(BEST_OF_LABEL).fill(str(best_of))


def wait_finished(page: Page, submission_id: str) -> None:
    """My submissions updates by itself: wait (without reloading) until the row says FINISHED."""
    open_tab(page, "My submissions")
    row = page.locator("#my-submissions-table tr", has_text=submission_id)
    expect(row).to_contain_text("FINISHED", timeout=LONG_MS)


def coloured_pixels(png: bytes, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels of a screenshot are within ``tolerance`` (per channel) of ``colour``."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    close = np.abs(pixels - np.array(colour, dtype=np.int16)).max(axis=2) <= tolerance
    return int(close.sum())


def scored(service, submission_id: str, timeout_s: float = 90) -> None:
    """Wait until a submission made from the test process is FINISHED (the app's worker or ours scores it)."""
    import time

    deadline = time.monotonic() + timeout_s
    while (status := service.status(submission_id).status) != "FINISHED":
        assert status != "FAILED" and time.monotonic() < deadline, f"{submission_id} is {status}"
        service.worker.drain()  # returns at once while the app's worker holds the machine's worker lock
        time.sleep(0.2)
