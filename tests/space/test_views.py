"""How reports, submissions and audit entries read on the pages."""

from __future__ import annotations

from leaderboard.records.check_report import Report
from space.site import views
from tests.service_fixtures import MAINTAINER, submit


def test_the_report_says_what_is_wrong_and_where():
    report = Report("test", 3, 5, 2, 1, 2, {"not JSON": 1}, ['line 3 (sample_id "t1"): not valid JSON'], ["w"])
    html = views.report_html(report)
    assert "2 of 5 expected rows are valid; 1 invalid and 2 missing rows will score 0" in html
    assert "line 3 (sample_id &quot;t1&quot;): not valid JSON" in html and "You can submit this file" in html
    refused = views.rejected_html("line 1: missing required column prediction", None)
    assert "This file cannot be submitted: line 1: missing required column prediction" in refused


def test_submitters_never_see_contacts_and_maintainers_do(service, files):
    submit(service, files["test-noisy"], model="<b>M</b>", publish=True)
    service.worker.drain()
    mine = views.my_table(service.my_submissions("alice"))
    assert "alice@example.org" not in mine and "&lt;b&gt;M&lt;/b&gt;" in mine and "awaiting approval" in mine
    desk = views.maintainer_table(service.pending(MAINTAINER), "pending", "none")
    assert "alice@example.org" in desk
    detail = views.detail_html(service.my_submissions("alice")[0])
    assert "Per embodiment" in detail and "FINISHED" in detail


def test_audit_changes_read_in_one_line():
    entries = [{"at": "2026-01-01T00:00:00Z", "who": "boss", "action": "approve", "target": "x",
                "before": {"decision": "pending"}, "after": {"decision": "approved"}}]  # fmt: skip
    assert "decision: pending → approved" in views.audit_table(entries)


def test_a_withheld_figure_is_said_to_be_withheld():
    from scoring.summary import Summary

    summary = Summary(None, None, 0.1, 20, 2, 0, 18, {"Bicycle": None}, withheld=["score", "per_embodiment.Bicycle"])
    html = views.summary_html(summary)
    assert "2 figure(s) withheld" in html and "per_embodiment.Bicycle" in html and "—" in html
