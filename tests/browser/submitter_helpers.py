"""What the submitter-side browser tests share: where things are on the screen, what the page announced."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.browser.conftest import RunningApp

SHOTS24 = Path("/tmp/shots24")  # screenshots to look at, at both sizes
# Every text a live region took, recorded from the page's start (Gradio's status announcer among them).
RECORD_ANNOUNCEMENTS = """
window.__announced = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const node = change.target.nodeType === 3 ? change.target.parentElement : change.target;
    const live = node && node.closest && node.closest('[aria-live], [role=status], [role=alert]');
    if (live && live.textContent.trim()) window.__announced.push(live.textContent.trim());
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def screenshot(page: Page, name: str) -> None:
    """What is on the screen now (not the whole page)."""
    SHOTS24.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS24 / f"{name}.png"), full_page=False)


def in_viewport(page: Page, selector: str) -> dict:
    """The element's box, asserted to start inside the viewport (its top on the screen, not off to a side)."""
    box = page.evaluate(
        "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }",
        selector,
    )
    size = page.viewport_size
    assert size is not None
    assert 0 <= box["top"] < size["height"] - 20, (selector, box, size)
    assert box["left"] >= 0 and box["right"] <= size["width"] + 1, (selector, box, size)
    return box


def focused(page: Page) -> str:
    """The element with the focus: its tag and the nearest elem_id around it."""
    return page.evaluate(
        "() => { const a = document.activeElement; return a.tagName + ' ' + ((a.closest('[id]') || {}).id || ''); }"
    )


def upload_folder(app: RunningApp) -> Path:
    """Gradio's upload folder of an app started by ``start_app`` (``GRADIO_TEMP_DIR``)."""
    return app.home.parent / "gradio"


def empty_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.stat().st_size == 0)
