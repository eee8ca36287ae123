"""The About page: what NaviTrace is, how a trace is scored, the file format with the example files, citation.

The words are ``space/site/words.py``'s (one place for all page text), rendered from Markdown once; the
formula, LaTeX there for Gradio's KaTeX, is MathML here (browsers draw it without a script).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from space.entry.citation import ORIGIN
from space.site import words
from space.site.html import esc
from space.web.warmup import EXAMPLES

EXAMPLES_PATH = "/examples"
FORMULA_MARK = "@@formula@@"
_COST = "".join(
    f"<mi>{name}</mi><mo>(</mo><mi>P</mi><mo>,</mo><msub><mi>G</mi><mi>j</mi></msub><mo>)</mo>"
    for name in ("DTW", "FDE", "Penalty")
).replace("<mo>)</mo><mi>", "<mo>)</mo><mo>+</mo><mi>")
FORMULA = (
    '<math display="block" aria-label="score = (B minus the minimum over j of DTW + FDE + Penalty) / B times 100">'
    "<mrow><mtext>score</mtext><mo>=</mo><mfrac><mrow><mi>B</mi><mo>−</mo><munder><mo>min</mo><mi>j</mi></munder>"
    f"<mo>(</mo>{_COST}<mo>)</mo></mrow><mi>B</mi></mfrac><mo>×</mo><mn>100</mn></mrow></math>"
)


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def markdown(text: str) -> str:
    """Our own Markdown (never a person's: raw HTML in it is shown as text) as HTML."""
    return _markdown().render(text)


def inline(text: str) -> str:
    return _markdown().renderInline(text)


def about_body(baseline_raw: float, embedded: bool, examples: Sequence[Path] | None, origin: str = "") -> str:
    """The page's main content. ``examples``: the example files ready to download (``None``: still being made);
    ``origin``: this site's address, which the leaderboard's citation names (else the project page)."""
    site = f"{origin}/" if ORIGIN.fullmatch(origin) else words.WEBPAGE
    text = words.about_page(baseline_raw, embedded, site).replace(words.FORMULA, FORMULA_MARK)
    top, bottom = text.split("## Scoring locally", 1)
    formula = f'<div class="nt-formula" tabindex="0" role="region" aria-label="The score\'s formula">{FORMULA}</div>'
    html = markdown(top).replace(f"<p>{FORMULA_MARK}</p>", formula)
    rest = markdown("## Scoring locally" + bottom)
    page = f"<h1>About NaviTrace and its leaderboard</h1>{html}{examples_html(examples)}{rest}"
    # A code block scrolls sideways on a phone: keyboard users reach it too (axe: scrollable-region-focusable).
    page = page.replace("<pre>", '<pre tabindex="0">').replace("<h2>Citation</h2>", '<h2 id="citation">Citation</h2>')
    return f'<article class="nt-about" id="about-page">{page}</article>'


def examples_html(examples: Sequence[Path] | None) -> str:
    """The example submissions as plain links (``GET /examples/<name>``)."""
    if examples is None:
        note = "The example files are being prepared (the first start makes them): reload this page in a few seconds."
        return f'<section id="about-examples"><p class="nt-note nt-note-info">{esc(note)}</p></section>'
    ready = {p.name for p in examples}
    items = "".join(
        f'<li><a href="{EXAMPLES_PATH}/{esc(name)}" download>{esc(name)}</a> ({esc(split)} split, {esc(kind)})</li>'
        for name, split, kind in EXAMPLES
        if name in ready
    )
    lead = "Example submissions (made by <code>python -m scoring example-submission</code>), each a plain download:"
    return f'<section id="about-examples"><p>{lead}</p><ul class="nt-examples">{items}</ul></section>'
