"""About with its example files, the embed for iframes, and the static files."""

from __future__ import annotations

import re

from tests.space.public.conftest import column


def test_about_links_every_example_file_and_serves_it(site):
    html = site.client.get("/about").text
    assert "<h1>About NaviTrace and its leaderboard</h1>" in html and "<math" in html
    names = re.findall(r'<a href="/examples/([\w.]+)" download>', html)
    assert names == [
        "example_validation_noisy.tsv",
        "example_validation_perfect.tsv",
        "example_validation_straight.tsv",
        "example_test_straight.tsv",
    ]
    served = site.client.get(f"/examples/{names[-1]}")
    assert served.status_code == 200 and served.text.startswith("sample_id\t")
    assert 'filename="example_test_straight.tsv"' in served.headers["content-disposition"]
    assert site.client.get("/examples/..%2Fsecret").status_code == 404
    assert site.client.get("/examples/README.md").status_code == 404


def test_the_embed_is_the_table_alone_and_may_be_framed(site):
    page = site.client.get("/embed?sort=model")
    html = page.text
    assert '<base target="_blank">' in html and 'id="site-header"' not in html and "<footer" not in html
    assert "frame-ancestors *" in page.headers["content-security-policy"]
    assert column(html, "Model")[0].startswith("Noisy")
    assert 'href="/embed?sort=model&amp;dir=desc" data-sort="model" target="_self"' in html  # sorts in the frame
    assert f'href="/entry/{site.ids["Perfect"]}"' in html  # an entry opens in a new tab (the base target)
    assert "<script" not in html


def test_only_our_static_files_are_served(site):
    assert site.client.get("/static/site.css").headers["content-type"].startswith("text/css")
    assert site.client.get("/static/board.js").headers["content-type"].startswith("text/javascript")
    assert site.client.get("/static/routes.py").status_code == 404
    assert site.client.get("/static/..%2F__init__.py").status_code == 404
