"""The service side of trust: the tries behind an entry, flags with evidence, declarations.

- ``submissions_model`` / ``submissions_total`` count a submitter's test submissions (a re-send once,
  cancelled ones not), and no withdrawal or choice of the public entry changes them;
- a flag is a maintainer's only, is in the audit log, shows in the public row, and goes with unflag;
- a public test submission cannot be made without its declarations, which the row then carries.
"""

from __future__ import annotations

import json

import pytest

from leaderboard.publishing.table import CARD, COLUMNS
from leaderboard.records.entries import flag_path
from leaderboard.records.errors import InvalidAction, NotAuthorised, NotFound, Rejected
from leaderboard.service import Leaderboard
from tests.service_fixtures import DECLARED, MAINTAINER, submit

DAY = 24 * 3600.0


def _row(service: Leaderboard, submission_id: str) -> dict:
    return next(r for r in service.public_table() if r["submission_id"] == submission_id)


def _counts(service: Leaderboard, submission_id: str) -> tuple[object, object]:
    row = _row(service, submission_id)
    return row["submissions_model"], row["submissions_total"]


def test_the_new_columns_come_after_the_interval_columns_in_the_contract_order():
    issue_15 = ("submissions_model", "submissions_total", "flag", "declarations", "hub_pr_url")
    issues_22_27 = ("model_group", "significantly_better")  # appended after them (space/board/ranks.py)
    releases = ("release",)  # the release each figure belongs to, last (publishing/editions.py)
    assert COLUMNS[-8:] == (*issue_15, *issues_22_27, *releases)
    assert all(name in CARD for name in COLUMNS[-8:])


def test_counts_across_resends_withdrawals_choices_and_cancels(service: Leaderboard, files, clock):
    # alice: three tries of "Navigator" (one is a re-send of the first file: the same submission), one of "Other"
    first = submit(service, files["test-noisy1"], model="Navigator", publish=True).submission_id
    clock.advance(60)
    again = submit(service, files["test-noisy1"], model="Navigator", publish=True)
    assert again.duplicate and again.submission_id == first
    second = submit(service, files["test-noisy2"], model="navigator", publish=True).submission_id  # same model
    clock.advance(60)
    other = submit(service, files["test-noisy3"], model="Other", publish=True).submission_id
    service.worker.drain()
    clock.advance(DAY)
    cancelled = submit(service, files["test-noisy4"], model="Navigator", publish=True).submission_id
    service.cancel(cancelled, "alice")  # never scored: not a try
    bobs = submit(service, files["test-noisy5"], user="bob", model="Navigator", publish=True).submission_id
    service.worker.drain()
    for submission_id in (first, second, other, bobs):
        service.approve(submission_id, MAINTAINER)

    assert _counts(service, first) == (2, 3)
    assert _counts(service, second) == (2, 3)
    assert _counts(service, other) == (1, 3)
    assert _counts(service, bobs) == (1, 1)  # bob's tries are his own

    service.choose_public(second, "alice")  # takes alice's others off the board: the count stays
    assert {first, other}.isdisjoint(r["submission_id"] for r in service.public_table())
    assert _counts(service, second) == (2, 3)
    service.withdraw(second, "alice")
    service.choose_public(first, "alice")  # approved before: back on the board at once
    assert _counts(service, first) == (2, 3)

    published = {r["submission_id"]: r for r in service.published_table()}
    assert (published[first]["submissions_model"], published[first]["submissions_total"]) == (2, 3)


def test_validation_reported_and_baseline_rows_have_no_counts(service: Leaderboard, files):
    validation = submit(service, files["validation-noisy"], split="validation", publish=True).submission_id
    service.worker.drain()
    service.approve(validation, MAINTAINER)
    service.add_reported(MAINTAINER, model="Paper model", score=12.0, source="https://arxiv.org/abs/2510.26909")
    for row in service.public_table():
        if row["kind"] != "submission" or row["split"] == "validation":
            assert (row["submissions_model"], row["submissions_total"], row["flag"]) == (None, None, None), row


def _public(service: Leaderboard, files, model: str = "Navigator") -> str:
    submission_id = submit(service, files["test-noisy"], model=model, publish=True).submission_id
    service.worker.drain()
    service.approve(submission_id, MAINTAINER)
    return submission_id


def test_a_flag_shows_in_the_row_and_the_audit_log_and_unflag_removes_it(service: Leaderboard, files, clock):
    entry = _public(service, files)
    link = "https://huggingface.co/spaces/x/discussions/7"
    flag = service.flag(entry, MAINTAINER, "contamination", "Trained on the test images", link)
    assert flag.kind == "contamination"
    assert _row(service, entry)["flag"] == {
        "kind": "contamination",
        "reason": "Trained on the test images",
        "link": link,
        "flagged_at": flag.flagged_at[:10],
    }
    assert _row(service, entry)["submission_id"] == entry  # flagged rows stay in the table
    published = {r["submission_id"]: r for r in service.published_table()}
    assert published[entry]["flag"]["kind"] == "contamination"
    # the same flag again writes nothing; another reason replaces it
    service.flag(entry, MAINTAINER, "contamination", "Trained on the test images", link)
    service.flag(entry, MAINTAINER, "duplicate", "Same traces as another entry")
    assert _row(service, entry)["flag"]["link"] is None
    assert service.unflag(entry, MAINTAINER) is True
    assert service.unflag(entry, MAINTAINER) is False  # nothing left to remove: nothing written
    assert _row(service, entry)["flag"] is None
    assert service.requests.read(flag_path(entry)) is None
    actions = [(e["who"], e["action"]) for e in service.audit_log(MAINTAINER, entry)]
    assert actions[-3:] == [(MAINTAINER, "flag"), (MAINTAINER, "flag"), (MAINTAINER, "unflag")]
    unflag = service.audit_log(MAINTAINER, entry)[-1]
    assert unflag["before"]["kind"] == "duplicate" and unflag["after"] is None


def test_only_maintainers_flag_and_bad_input_says_what_was_expected(service: Leaderboard, files):
    entry = _public(service, files)
    with pytest.raises(NotAuthorised):
        service.flag(entry, "alice", "other", "I do not like it")
    service.flag(entry, MAINTAINER, "other", "Under review")
    with pytest.raises(NotAuthorised):
        service.unflag(entry, "alice")
    assert _row(service, entry)["flag"]["kind"] == "other"
    with pytest.raises(InvalidAction, match="expected one of contamination, unverified, duplicate, other"):
        service.flag(entry, MAINTAINER, "bad", "reason")
    with pytest.raises(InvalidAction, match="needs a reason"):
        service.flag(entry, MAINTAINER, "other", "   ")
    with pytest.raises(InvalidAction, match="expected an http"):
        service.flag(entry, MAINTAINER, "other", "reason", "javascript:alert(1)")
    with pytest.raises(InvalidAction, match="at most"):
        service.flag(entry, MAINTAINER, "other", "x" * 1001)
    with pytest.raises(NotFound):
        service.flag("0123456789abcdef", MAINTAINER, "other", "reason")


def test_a_public_test_submission_needs_its_declarations(service: Leaderboard, files):
    with pytest.raises(Rejected, match="missing: trained_on, test_images_beyond_inference, best_of"):
        submit(service, files["test-noisy"], publish=True, declarations=None)
    with pytest.raises(Rejected, match="missing: best_of"):
        submit(service, files["test-noisy"], publish=True, declarations={**DECLARED, "best_of": ""})
    with pytest.raises(Rejected, match="trained_on='train'"):
        submit(service, files["test-noisy"], publish=True, declarations={**DECLARED, "trained_on": "train"})
    assert service.my_submissions("alice") == []  # nothing was stored
    # a private test score and a validation file need none
    private = submit(service, files["test-noisy"]).submission_id
    validation = submit(service, files["validation-noisy"], split="validation").submission_id
    assert service.registry.request(private).declarations is None
    assert service.registry.request(validation).declarations is None


def test_the_declarations_are_stored_and_shown_without_the_hub_permission(service: Leaderboard, files):
    declared = {
        "trained_on": "validation",
        "test_images_beyond_inference": "no",
        "code_link": "https://github.com/x/y",
        "best_of": "4",
        "share_on_hub": "yes",
    }
    entry = submit(service, files["test-noisy"], publish=True, declarations=declared).submission_id
    stored = json.loads(service.requests.read(f"requests/{entry}.json") or b"{}")["declarations"]
    assert stored["best_of"] == 4 and stored["share_on_hub"] is True
    service.worker.drain()
    service.approve(entry, MAINTAINER)
    assert _row(service, entry)["declarations"] == {
        "trained_on": "validation",
        "test_images_beyond_inference": False,
        "code_link": "https://github.com/x/y",
        "best_of": 4,
    }


def test_flag_and_unflag_from_the_command_line(environ, settings, files, capsys):
    from leaderboard.cli.parser import main

    service = Leaderboard(settings)
    entry = _public(service, files)
    link = "https://example.org/discussion/1"
    assert main(["flag", entry, "--kind", "unverified", "--reason", "Not re-run", "--by", "alice"], environ) == 2
    assert "not allowed" in capsys.readouterr().err
    assert (
        main(["flag", entry, "--kind", "unverified", "--reason", "Not re-run", "--link", link, "--by", "boss"], environ)
        == 0
    )
    assert capsys.readouterr().out.strip() == f"{entry}: flagged unverified (Not re-run)"
    assert Leaderboard(settings).public_table()[0]["flag"]["link"] == link
    assert main(["unflag", entry, "--by", "boss"], environ) == 0
    assert capsys.readouterr().out.strip() == f"{entry}: unflagged"
    submitted = ["submit", str(files["test-noisy2"]), "--split", "test", "--model", "M", "--user", "bob", "--publish"]
    assert main(submitted, environ) == 2
    assert "missing: trained_on" in capsys.readouterr().err
    declared = ["--trained-on", "none", "--test-images-beyond-inference", "no", "--best-of", "3", "--share-on-hub"]
    assert main([*submitted, *declared], environ) == 0
    submission_id = capsys.readouterr().out.strip().splitlines()[-1]
    assert service.registry.request(submission_id).declarations.best_of == 3


def test_submit_remote_sends_the_declarations_as_form_fields(monkeypatch, files, capsys):
    import httpx

    from leaderboard.cli import remote
    from leaderboard.cli.parser import parser

    sent: dict = {}

    class Answer:
        status_code = 200

        @staticmethod
        def json() -> dict:
            return {"submission_id": "0123456789abcdef", "message": "Submitted."}

    def post(url, headers, data, files, timeout):  # noqa: ANN001 (httpx.post's arguments)
        sent.update(url=url, data=data)
        return Answer()

    monkeypatch.setattr(httpx, "post", post)
    args = parser().parse_args(
        ["submit-remote", str(files["test-noisy"]), "--space", "https://x.hf.space", "--split", "test", "--model", "M"]
        + ["--publish", "--trained-on", "validation", "--test-images-beyond-inference", "no", "--best-of", "2"]
        + ["--code-link", "https://github.com/x/y", "--share-on-hub"]
    )
    assert remote.submit_remote(args, "hf_token") == 0
    assert sent["url"] == "https://x.hf.space/script-api/submit"
    assert {k: sent["data"][k] for k in ("trained_on", "test_images_beyond_inference", "best_of", "code_link")} == {
        "trained_on": "validation",
        "test_images_beyond_inference": "no",
        "best_of": "2",
        "code_link": "https://github.com/x/y",
    }
    assert sent["data"]["share_on_hub"] == "yes" and sent["data"]["publish"] == "true"
    assert capsys.readouterr().out.strip().endswith("0123456789abcdef")
