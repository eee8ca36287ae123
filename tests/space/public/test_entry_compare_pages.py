"""An entry's page and compare as plain pages: the figures, the ways on, and forms that say what they show."""

from __future__ import annotations

import re

from tests.space.public.conftest import cells


def test_an_entry_page_shows_its_figures_and_the_ways_on(site):
    entry_id = site.ids["Noisy"]
    page = site.client.get(f"/entry/{entry_id}")
    html = page.text
    assert page.status_code == 200
    assert "<h1 id='entry-title'>Noisy</h1>" in html and "<title>Noisy · NaviTrace Leaderboard</title>" in html
    assert re.search(r"Score <b>95\.\d\d</b> <span title='95% confidence interval'>\[\d", html)
    assert "rank <b>2</b>" in html
    assert '<a class="nt-back" id="back-to-board" href="/">← Back to the board</a>' in html
    # "Compare with…": a GET form that sends this entry and the one picked.
    form = re.search(
        r'<form class="nt-compare-with" id="compare-with" method="get" action="/compare">(.*?)</form>', html
    )
    assert form and f'<input type="hidden" name="compare" value="{entry_id}">' in form.group(1)
    assert (
        f'value="{site.ids["Perfect"]}"' in form.group(1)
        and f'value="{entry_id}"' not in form.group(1).split("<select")[1]
    )
    assert '<meta property="og:type" content="article">' in html and "Noisy on the NaviTrace test split" in html
    assert "Human" in html and 'id="entry-embodiment"' in html  # the interval charts
    facts = dict((row[0], row[1]) for row in cells(html, "entry-facts")[1:])
    assert facts["Organisation"] == "Acme" and facts["Id"] == entry_id


def test_an_unknown_or_private_entry_is_not_found(site):
    for wanted in ("no-such-id", site.ids["Secret"]):
        page = site.client.get(f"/entry/{wanted}")
        assert page.status_code == 404 and "No public entry has the id" in page.text
        assert "Secret" not in page.text.replace(wanted, "")


def test_compare_takes_both_address_forms_and_preselects_its_pickers(site):
    a, b = site.ids["Noisy"], site.ids["Straight"]
    for query in (f"compare={a},{b}", f"compare={a}&compare={b}"):
        html = site.client.get(f"/compare?{query}").text
        assert 'id="compare-page"' in html and "A − B = <b>+" in html
        picked = re.findall(r'<option value="(\w+)" selected>', html)
        assert picked == [a, b], query
    assert re.search(r'<select id="compare-a" name="compare" required>', html)
    prompt = site.client.get("/compare").text
    assert "Pick two entries" in prompt and "selected>" not in prompt
    missing = site.client.get(f"/compare?compare={a},nope")
    assert missing.status_code == 404 and "No public entry has the id “nope”" in missing.text


def test_the_differences_chart_stays_inside_its_tracks(site):
    a, b = site.ids["Straight"], site.ids["Perfect"]  # A − B is negative everywhere: the bars run left of 0
    html = site.client.get(f"/compare?compare={a},{b}").text
    chart = html[html.index('id="compare-bars"') :]
    xs = [float(x) for x in re.findall(r'(?:x1|x2|x)="(-?[\d.]+)"', chart)]
    xs += [float(x) for path in re.findall(r'd="([^"]+)"', chart) for x in re.findall(r"[MH](-?[\d.]+)", path)]
    widths = [float(w) for w in re.findall(r'width="(-?[\d.]+)"', chart)]
    assert xs and min(xs) >= 0 and max(xs) <= 100 and all(w >= 0 for w in widths)
    assert "nt-ci-neg" in chart
