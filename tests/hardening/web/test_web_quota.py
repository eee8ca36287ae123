"""TEST_SUBMISSIONS_PER_DAY is per user: no change to the model, the metadata, the file or the name's case dodges it.

Everything goes through the app's own Submit endpoint, signed in with the local sign-in (on a
Space the name comes from Hugging Face OAuth, which nobody can choose either).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.browser.conftest import RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import QUOTA, Files, receipt_id, service_of, submit

LIMIT = "daily limit reached"


def test_a_full_quota_is_not_dodged_by_renaming_or_changing_anything(web_app: RunningApp, web_files: Files):
    quinn = web_api.sign_in(web_app.url, "quinn")
    accepted = [
        receipt_id(submit(web_app, quinn, web_files.make("test", seed=100 + i), "test", model=f"Quinn-{i}"))
        for i in range(QUOTA)
    ]
    assert len(set(accepted)) == QUOTA
    changed_bytes = web_files.folder / "test-crlf.tsv"
    changed_bytes.write_bytes(web_files.make("test", seed=100).read_bytes().replace(b"\n", b"\r\n"))
    attempts = {
        "another model name": ("quinn", web_files.make("test", seed=110), {"model": "Totally-Different"}),
        "another organisation, links, e-mail": (
            "quinn",
            web_files.make("test", seed=111),
            {
                "organization": "Other Lab",
                "model_link": "https://example.org/m",
                "paper_link": "https://arxiv.org/abs/2",
                "contact_email": "other@example.org",
            },
        ),
        "publish flag flipped": ("quinn", web_files.make("test", seed=112), {"publish": True}),
        "the same predictions, other bytes (CRLF)": ("quinn", changed_bytes, {}),
        "the name in capitals": ("QUINN", web_files.make("test", seed=113), {}),
        "the name capitalised": ("Quinn", web_files.make("test", seed=114), {}),
        "the name with spaces around": (" quinn ", web_files.make("test", seed=115), {}),
    }
    for what, (user, path, meta) in attempts.items():
        answer = submit(web_app, web_api.sign_in(web_app.url, user.strip() or user), path, "test", **meta)
        assert LIMIT in answer.text.lower() and "Submitted:" not in answer.text, (what, answer.text[:400])
    # Re-sending an accepted file is the same submission (dedupe), not a new one past the limit.
    again = submit(web_app, quinn, web_files.make("test", seed=100), "test", model="Quinn-0")
    assert "already sent this file" in again.text and receipt_id(again) == accepted[0]
    # The quota line agrees, whatever the case of the name.
    for user in ("quinn", "QUINN"):
        shown = web_api.data_of(web_api.call(web_app.url, "show_quota", [], web_api.sign_in(web_app.url, user)))
        assert f"**0 of {QUOTA}**" in shown[0], (user, shown)
    mine = service_of(web_app).my_submissions("quinn")
    assert sorted(v.submission_id for v in mine if v.split == "test") == sorted(accepted)


def test_a_burst_of_concurrent_test_submissions_stops_at_the_quota(web_app: RunningApp, web_files: Files):
    racer = web_api.sign_in(web_app.url, "racer")
    files = [web_files.make("test", seed=200 + i) for i in range(QUOTA + 3)]
    with ThreadPoolExecutor(len(files)) as pool:
        answers = list(pool.map(lambda f: submit(web_app, racer, f, "test", model=f.stem), files))
    accepted = [a for a in answers if "Submitted:" in a.text]
    refused = [a for a in answers if LIMIT in a.text.lower()]
    assert len(accepted) == QUOTA and len(refused) == len(files) - QUOTA, [a.text[:200] for a in answers]
    assert len([v for v in service_of(web_app).my_submissions("racer") if v.split == "test"]) == QUOTA
