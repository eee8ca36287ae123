"""The board as a plain page: what a reader sees in the HTML the server sends (no script needed)."""

from __future__ import annotations

import gzip
import re
from urllib.parse import urlsplit

from space.board.address import address, controls_of
from space.site.shell import Viewer
from tests.space.public.conftest import cells, column, links


def test_the_board_lists_the_public_entries_best_first_with_ranks_and_links(site):
    page = site.client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "private, no-cache"
    html = page.text
    models = column(html, "Model")
    # Flagged entries are off the default board; the private one is never shown; the baseline closes the list.
    assert [m.split(" ")[0] for m in models] == ["Perfect", "Noisy", "Straight", "Paper-Model", "Straight"]
    assert "Secret" not in html and "Flaggy" not in html
    assert column(html, "Rank")[:2] == ["1", "2"] and column(html, "Rank")[-1] == "—"
    assert f"/entry/{site.ids['Perfect']}" in links(html)
    assert 'id="board-summary"' in html and "4 models on the test split" in html
    assert "1 flagged entry hidden" in html and 'href="/?flagged=1"' in html
    assert re.search(r'id="board-updated">Last updated <time datetime="\d{4}-\d\d-\d\d', html)


def test_the_first_screen_has_the_ways_on_and_the_page_says_what_it_is(site):
    html = site.client.get("/").text
    assert '<a class="nt-button nt-primary" id="submit-link" href="/submit/">Submit your model</a>' in html
    assert 'id="board-csv-link" href="/board.csv?split=test"' in html
    assert '<details id="board-filters"><summary>' in html  # closed: no "open" attribute
    assert 'href="https://arxiv.org/abs/2510.26909">Paper</a>' in html and ">Dataset</a>" in html
    assert '<meta property="og:title" content="NaviTrace Leaderboard">' in html
    assert re.search(r'<meta name="description" content="[^"]*best Perfect with 100.00', html)
    assert '<a class="nt-skip" href="#main">' in html and '<main id="main"' in html


def test_the_pages_need_no_inline_script_or_style(site):
    for path in ("/", f"/entry/{site.ids['Noisy']}", f"/compare?compare={site.ids['Noisy']},{site.ids['Perfect']}"):
        html = site.client.get(path).text
        assert " style=" not in html, path
        assert re.findall(r"<script[^>]*>", html) in (
            [],
            ['<script src="/static/board.js?v=' + _version(html) + '" defer>'],
        )


def _version(html: str) -> str:
    found = re.search(r"board\.js\?v=(\w+)", html)
    return found.group(1) if found else ""


def test_a_header_link_sorts_and_the_same_header_again_reverses(site):
    html = site.client.get("/").text
    head = cells(html)[0]
    assert head[:2] == ["Rank", "Rank (UB)"] and head[3] == "Score▼"  # sorted by score, best first
    hrefs = dict(re.findall(r'href="([^"]+)" data-sort="([^"]+)"', html)[i][::-1] for i in range(len(head) - 2))
    assert hrefs["score"] == "/?dir=asc" and hrefs["model"] == "/?sort=model"
    by_name = site.client.get("/?sort=model").text
    assert [m.split(" ")[0] for m in column(by_name, "Model")][:3] == ["Noisy", "Paper-Model", "Perfect"]
    assert 'aria-sort="ascending"' in by_name and 'href="/?sort=model&amp;dir=desc"' in by_name
    reversed_ = site.client.get("/?sort=model&dir=desc").text
    assert column(reversed_, "Model")[0].startswith("Straight")


def test_the_search_form_lands_on_the_short_address_of_what_it_shows(site):
    sent = site.client.get("/?q=noisy&cols=&cols=emb&by=&pmin=&pmax=&org=")  # what the GET form sends
    assert sent.status_code == 303 and sent.headers["location"] == "/?q=noisy"
    html = site.client.get("/?q=noisy").text
    assert [m.split(" ")[0] for m in column(html, "Model")] == ["Noisy", "Straight"]  # and the baseline line
    assert column(html, "Rank")[0] == "2"  # its place on the whole board
    assert 'value="noisy"' in html and "1 model matches" in html


def test_a_filter_and_the_column_groups_come_from_the_form(site):
    sent = site.client.get("/?q=&cols=&cols=emb&cols=details&open=1")
    assert sent.headers["location"] == "/?cols=emb%2Cdetails&open=1"
    html = site.client.get(sent.headers["location"]).text
    assert [m.split(" ")[0] for m in column(html, "Model")] == ["Perfect", "Straight"]
    assert "Id" in [h.rstrip("▲▼") for h in cells(html)[0]]
    assert 'id="board-cols-details" name="cols" value="details" checked' in html
    assert "(2 set)" in html  # the closed panel says how many settings are on
    none = site.client.get("/?cols=").text  # no group ticked: no per-embodiment columns
    assert "Human" not in cells(none)[0]


def test_show_flagged_restores_the_flagged_entry_from_the_address(site):
    html = site.client.get("/?flagged=1").text
    models = column(html, "Model")
    assert any(m.startswith("Flaggy") and "contamination" in m for m in models)
    assert 'id="board-show-flagged" name="flagged" value="1" checked' in html


def test_all_entries_and_the_validation_board_say_what_they_are(site):
    html = site.client.get("/?split=validation").text
    assert "validation split is for development" in html and "only the straight-forward baseline" not in html
    assert "No reported figure for the validation split yet." in html
    assert 'aria-current="page">Validation</a>' in html
    assert 'href="/board.csv?split=validation"' in html


def test_old_addresses_go_to_the_new_pages(site):
    entry_id = site.ids["Noisy"]
    assert site.client.get(f"/?entry={entry_id}").headers["location"] == f"/entry/{entry_id}"
    moved = site.client.get(f"/?compare={entry_id},{site.ids['Perfect']}")
    assert (
        moved.status_code == 302 and moved.headers["location"] == f"/compare?compare={entry_id}%2C{site.ids['Perfect']}"
    )
    old_sort = site.client.get("/?sort=Score&split=test")  # an old label still opens the board
    assert old_sort.status_code == 200 and column(old_sort.text, "Rank")[0] == "1"


def test_hub_rows_show_on_request_and_one_date_draws_no_flat_lines(rows_site):
    rows = [
        _row("a", "submission", 40.0, "Alpha"),
        _row("h", "hub", 55.0, "HubModel"),
        {"submission_id": "baseline-test", "kind": "baseline", "split": "test", "model": "Straight", "score": 0.0},
    ]
    client = rows_site(rows)
    html = client.get("/").text
    assert "HubModel" not in column(html, "Model")[0] and "1 Hub-reported result not shown" in html
    assert 'href="/?hub=1"' in html
    shown = client.get("/?hub=1").text
    assert any(m.startswith("HubModel") for m in column(shown, "Model"))
    assert "One date so far (2026-01-02)" in html and "<polyline" not in html


def _row(ident: str, kind: str, score: float, model: str) -> dict[str, object]:
    return {"submission_id": ident, "kind": kind, "split": "test", "model": model, "score": score,
            "submitted_at": "2026-01-02", "per_embodiment": {"Human": score}}  # fmt: skip


def test_the_header_names_who_is_signed_in(site):
    site.viewer[0] = Viewer(user="boss", maintainer=True, sign_in="local")
    html = site.client.get("/?q=x").text
    assert "Signed in as <strong>boss</strong> · maintainer" in html and 'href="/maintainers/"' in html
    assert '<input type="hidden" name="next" value="/?q=x">' in html and 'action="/local-auth/sign-out"' in html
    site.viewer[0] = Viewer(sign_in="huggingface")
    html = site.client.get("/about").text
    assert 'href="/login/huggingface?_target_url=%2Fabout"' in html and 'id="nt-local-user"' not in html
    assert '<a href="/about" aria-current="page">About</a>' in html


def test_each_view_is_drawn_once_per_results_version(site):
    pages = next(r.endpoint.__self__ for r in site.client.app.routes if getattr(r, "path", "") == "/")
    site.client.get("/?sort=date")
    before = pages.drawn.drawings
    for _ in range(3):
        site.client.get("/?sort=date")
    assert pages.drawn.drawings == before


def test_an_address_reads_back_as_the_same_view():
    for query in ("", "split=validation&q=qwen+7B&sort=emb%3AHuman&dir=asc&cols=emb%2Ccat&by=lighting_conditions",
                  "all=1&open=1&pmin=1&pmax=10&org=ETH&flagged=1&hub=1&notrained=1&single=1", "cols="):  # fmt: skip
        controls = controls_of([tuple(p.split("=", 1)) for p in query.split("&") if p])
        again = address(controls)
        assert controls_of(_pairs(again)) == controls, query


def _pairs(address_: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl

    return parse_qsl(urlsplit(address_).query, keep_blank_values=True)


def test_the_first_visit_stays_within_its_budget(site):
    board = site.client.get("/").text
    css = site.client.get(re.search(r'href="(/static/site\.css\?v=\w+)"', board).group(1))
    js = site.client.get(re.search(r'src="(/static/board\.js\?v=\w+)"', board).group(1))
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
    total = sum(len(gzip.compress(x.encode() if isinstance(x, str) else x)) for x in (board, css.content, js.content))
    assert total < 100_000 and len(js.content) < 20_000


def test_what_a_visitor_types_stays_text(site):
    html = site.client.get("/?q=%3Cscript%3Ealert(1)%3C/script%3E%22").text
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    missing = site.client.get("/entry/%3Cimg%20src=x%20onerror=alert(1)%3E").text
    assert "<img src=x" not in missing and "&lt;img src=x onerror=alert(1)&gt;" in missing


def test_a_new_results_version_is_drawn_before_readers_ask(rows_site):
    """The default board and the views read lately are drawn by the reader of the rows, not by a visitor."""
    rows = [_row("a", "submission", 40.0, "Alpha")]
    client = rows_site(rows)
    pages = next(r.endpoint.__self__ for r in client.app.routes if getattr(r, "path", "") == "/")
    board = pages.services.board
    client.get("/?sort=date")
    assert "Alpha" in client.get("/").text
    rows.append(_row("b", "submission", 60.0, "Beta"))
    board.refresh()  # what the app does when the worker reports an outcome
    drawn = pages.drawn.drawings
    assert "Beta" in client.get("/").text and "Beta" in client.get("/?sort=date").text
    assert pages.drawn.drawings == drawn  # both were drawn ahead


def test_a_view_in_hand_is_answered_without_a_worker_thread(rows_site, monkeypatch):
    """Kept fresh, the usual view is served on the event loop: a thread hop is what grows on a busy machine."""
    client = rows_site([_row("a", "submission", 40.0, "Alpha")])
    pages = next(r.endpoint.__self__ for r in client.app.routes if getattr(r, "path", "") == "/")
    pages.services.board.keep_fresh()
    try:
        assert "Alpha" in client.get("/").text  # drawn (in a worker thread) and kept

        def no_threads(*args, **kwargs):
            raise AssertionError("a worker thread was used")

        monkeypatch.setattr("space.site.routes.run_in_threadpool", no_threads)
        assert "Alpha" in client.get("/").text
    finally:
        pages.services.board.close()
