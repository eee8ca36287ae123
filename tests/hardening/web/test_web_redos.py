"""The ReDoS value of issue 14 sent to the Submit endpoint: refused at once, the value not echoed.

Before the fix, ``"1"*2400 + " "*2400 + "x"`` in "Parameter count" took 50 s of the interpreter
(``re`` backtracking with the GIL held) and every visitor waited as long. Asserted structurally:
the refusal is the length cap's message (so the pattern never ran), it quotes no more than a short
prefix, and nothing was stored.
"""

from __future__ import annotations

from tests.browser.conftest import RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import Files, service_of, submit

ATTACK = "1" * 2400 + " " * 2400 + "x"


def test_the_redos_parameter_count_is_refused_by_its_length_cap(web_app: RunningApp, web_files: Files):
    cookie = web_api.sign_in(web_app.url, "redos-rita")
    before = len(service_of(web_app).my_submissions("redos-rita"))
    answer = submit(web_app, cookie, web_files.make("validation", seed=900), "validation", parameters_b=ATTACK)
    assert "nt-note-error" in answer.text  # the page's refusal note, not a receipt
    assert "parameters_b has 4801 characters, expected at most 32" in answer.text
    assert "1" * 64 not in answer.text and " " * 64 not in answer.text
    assert len(service_of(web_app).my_submissions("redos-rita")) == before
