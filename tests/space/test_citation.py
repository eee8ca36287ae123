"""An entry's citation (space/entry/citation.py): what it names, and that no model or
organisation name, however hostile, can break out of its BibTeX field or out of the page's HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leaderboard.publishing.editions import Edition
from space.entry import citation
from space.entry.citation import CitedRelease, bibtex, citation_html, permanent_url, plain, release_of

ORIGIN = "https://navitrace.hf.space"
ROW = {
    "submission_id": "0123456789abcdef01234567",
    "kind": "submission",
    "split": "test",
    "model": "Alpha-VLM 7B",
    "organization": "Lab A",
    "score": 40.0,
    "score_ci": [38.0, 42.5],
    "submitted_at": "2026-03-01",
}
HOSTILE = [
    "}",
    "{",
    "\\",
    "\\}",
    "%",
    "}, author = {Mallory",
    "\n}\n@misc{evil,\n title = {x",
    "</pre><script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "&amp;",
    "$\\input{/etc/passwd}$",
    "#_^~",
    "\u202e\u0000\t",
]
hostile = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6)), max_size=6).map("".join)


def test_the_citation_names_the_entry_its_release_and_date_the_score_and_a_permanent_address():
    text = plain(ROW, ORIGIN)
    url = f"{ORIGIN}/entry/0123456789abcdef01234567?release=v1"
    assert text == (
        "Lab A. Alpha-VLM 7B, NaviTrace Leaderboard entry 0123456789abcdef01234567 (test split), release v1 "
        f"(2026-03-01): score 40.00 (95% CI 38.00–42.50). {url}"
    )
    entry = bibtex(ROW, ORIGIN)
    assert entry.startswith("@misc{navitrace-0123456789abcdef01234567,\n")
    assert fields(entry) == {
        "title": "Alpha-VLM 7B on the {NaviTrace} Leaderboard (test split, release v1)",
        "author": "{Lab A}",
        "year": "2026",
        "howpublished": f"\\url{{{url}}}",
        "url": url,
        "note": "Entry 0123456789abcdef01234567, release v1 (2026-03-01): score 40.00 (95\\% CI 38.00--42.50)",
    }


def test_the_release_comes_from_the_row_else_v1_and_the_address_names_it():
    assert release_of({**ROW, "release": "v3"}) == CitedRelease("v3", "2026-03-01")
    assert release_of({**ROW, "release": "v3&x=<b>"}).name == "v1"  # not a release name: the first
    assert permanent_url({**ROW, "release": "v3"}, ORIGIN).endswith("?release=v3")
    assert "release v3" in plain({**ROW, "release": "v3"}, ORIGIN)


def test_a_release_the_board_knows_gives_its_own_day_and_the_implicit_v1_the_entrys():
    first = Edition("v1", "", 0, None, None, None, "1.0.0", 3300.0, "exact")
    second = Edition("v2", "", 1, "2026-11-28T10:00:00.000000Z", None, None, "1.1.0", 3300.0, "exact")
    assert release_of({**ROW, "release": "v2"}, [first, second]) == CitedRelease("v2", "2026-11-28")
    assert release_of(ROW, [first, second]) == CitedRelease("v1", "2026-03-01")  # no release column: v1, no day
    html = citation_html({**ROW, "release": "v2"}, ORIGIN, [first, second])
    assert "Release <strong>v2</strong> (2026-11-28)" in html and "release v2 (2026-11-28): score 40.00" in html
    assert "?release=v2" in html


def test_an_address_the_site_does_not_check_is_left_out_and_a_withheld_score_says_so():
    for origin in ('http://x"><script>', "javascript:alert(1)", "http://a b", ""):
        assert permanent_url(ROW, origin) == "/entry/0123456789abcdef01234567?release=v1"
    assert permanent_url(ROW, "http://[::1]:7860").startswith("http://[::1]:7860/entry/")
    withheld = plain({**ROW, "score": None, "score_ci": None, "organization": None}, ORIGIN)
    assert withheld.startswith("Alpha-VLM 7B, ") and "score withheld" in withheld
    assert "author" not in fields(bibtex({**ROW, "organization": None}, ORIGIN))


def test_a_reported_figure_points_to_its_source_instead():
    html = citation_html({**ROW, "kind": "reported", "source": "https://arxiv.org/abs/2510.26909"}, ORIGIN)
    assert "cite where it was published" in html and "<pre" not in html


@hypothesis_settings(max_examples=300, deadline=None)
@given(model=hostile, organization=hostile)
def test_no_name_breaks_out_of_its_bibtex_field(model: str, organization: str):
    row = {**ROW, "model": model, "organization": organization or None}
    entry = bibtex(row, ORIGIN)
    found = fields(entry)  # BibTeX's reading: every brace counts, escaped or not
    assert set(found) == {"title", "year", "howpublished", "url", "note"} | ({"author"} if organization else set())
    assert "\n" not in "".join(found.values())  # an "@" inside a value is text to BibTeX: only the first opens
    for value in found.values():
        assert not re.search(r"(?<!\\)[%#&$_^~]", value.replace("\\url{", "")), value  # LaTeX's specials escaped
    one_line = " ".join(model.split())
    shown = "".join(c for c in one_line if c.isprintable())
    assert unescape(found["title"]) == f"{shown} on the {{NaviTrace}} Leaderboard (test split, release v1)"


@hypothesis_settings(max_examples=200, deadline=None)
@given(model=hostile, organization=hostile)
def test_no_name_breaks_out_of_the_page(model: str, organization: str):
    row = {**ROW, "model": model, "organization": organization or None}
    page = _Page()
    page.feed(citation_html(row, ORIGIN))
    page.close()
    assert page.tags <= {"section", "h2", "h3", "p", "strong", "a", "div", "button", "span", "pre"}, page.tags
    assert page.pres == {"entry-cite-bibtex": bibtex(row, ORIGIN), "entry-cite-plain": plain(row, ORIGIN)}
    assert page.links == [permanent_url(row, ORIGIN), "/about#citation"]


# -- reading BibTeX as BibTeX does ------------------------------------------------------------------------------


def fields(entry: str) -> dict[str, str]:
    """The fields of one ``@misc`` entry: ``name = {value}``, each value running to the brace that closes its own
    (BibTeX counts every brace, a backslash before it or not); the entry's own brace must close it, last."""
    head = re.match(r"@misc\{navitrace-[A-Za-z0-9_.:-]+,", entry)
    assert head, entry
    found, at = {}, head.end()
    field = re.compile(r"\s*([a-z]+)\s*=\s*\{")
    while True:
        start = field.match(entry, at)
        if start is None:
            assert entry[at:].strip() == "}", entry[at:]
            return found
        depth, i = 1, start.end()
        while depth:
            assert i < len(entry), f"field {start.group(1)} never closes"
            depth += {"{": 1, "}": -1}.get(entry[i], 0)
            i += 1
        assert start.group(1) not in found, f"field {start.group(1)} twice"
        found[start.group(1)] = entry[start.end() : i - 1]
        at = i + 1 if entry[i : i + 1] == "," else i


def unescape(text: str) -> str:
    commands = {v: k for k, v in citation.LATEX.items()}
    return re.sub(r"\\text[a-z]+\{\}|\\[%&$#_]", lambda m: commands.get(m.group(0), m.group(0)), text)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.pres: dict[str, str] = {}
        self.links: list[str] = []
        self._pre: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        found = dict(attrs)
        if tag == "pre":
            self._pre = str(found.get("id"))
            self.pres[self._pre] = ""
        if tag == "a":
            self.links.append(str(found.get("href")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._pre = None

    def handle_data(self, data: str) -> None:
        if self._pre is not None:
            self.pres[self._pre] += data
