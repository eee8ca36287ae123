"""Submitting from a script: ``POST /script-api/submit`` with the submitter's own Hugging Face token.

    curl -H "Authorization: Bearer $HF_TOKEN" -F file=@pred.tsv -F split=test -F model="My VLM" \\
         https://<space>.hf.space/script-api/submit

or ``python -m leaderboard submit-remote`` (``leaderboard/cli/remote.py``), which sends exactly that.

Why a plain route and not a Gradio endpoint for ``gradio_client``: a Gradio call is several
requests (the config, an upload to ``/gradio_api/upload``, joining the queue, an event stream),
and uploads there are for signed-in browser sessions; here one request carries the file and the
form, so one place checks it: its size before a byte is read (``space.web.guard.Keeper``), no
``Origin`` at all (``space.web.guard.Door``: pages use the Submit tab), then the token.

The user is whoever the Hub's ``whoami`` says the token belongs to (``space.web.tokens``); a ``user``
field in the form is ignored and said so. From there it is the Submit tab's path: the same
per-user upload limits (the guard's ``RateLimit`` objects, shared with the browser), the same
``Leaderboard.submit`` (validation, duplicates, the daily quota, the moderation flags) and the
same messages, as JSON. The answer never echoes the token.
"""

from __future__ import annotations

import logging
from dataclasses import fields as fields_of
from typing import Any

import anyio
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from leaderboard import Rejected
from leaderboard.records import Declarations, QuotaExceeded, Split
from space.web.guard import SCRIPT_SUBMIT, Guard
from space.web.services import Services
from space.web.tokens import HubCalls, HubUnavailable, TokenRefused, TooManyLookups, WhoAmI, hub_lookup
from space.workspace.errors import describe

log = logging.getLogger(__name__)

AT_ONCE = 2  # submissions read and checked at once (a 64 MB file costs ~1.2 GB): as the Submit tab's checks
MAX_FIELDS = 24  # the metadata fields, the declarations, split, publish, file: a form with more is not ours
MAX_FIELD_BYTES = 8 * 1024  # one text field (the longest, the description, is far shorter)
IGNORED = ("user", "username")  # who submits is the token's, never the form's
TRUE = ("1", "true", "yes", "on")
FALSE = ("", "0", "false", "no", "off")
DECLARATION_FIELDS = tuple(f.name for f in fields_of(Declarations))
HOW = "send your Hugging Face token as the header 'Authorization: Bearer hf_…' (a read token is enough)"


def routes(services: Services, guard: Guard, whoami: WhoAmI | None = None) -> list[Route]:
    """The scripted submission route, for ``launch``'s ``app_kwargs``."""
    space = services.space
    who = whoami or WhoAmI(hub_lookup(), space.token_cache_s, space.token_lookups_per_minute)
    hub = HubCalls(space.token_lookups_at_once)
    return [Route(SCRIPT_SUBMIT, ScriptSubmit(services, guard, who, hub).handle, methods=["POST"])]


class ScriptSubmit:
    def __init__(self, services: Services, guard: Guard, whoami: WhoAmI, hub: HubCalls) -> None:
        self.services, self.guard, self.whoami, self.hub = services, guard, whoami, hub
        self._slots: anyio.CapacityLimiter | None = None  # made on first use: it belongs to the server's event loop

    async def handle(self, request: Request) -> JSONResponse:
        token = _bearer(request.headers.get("authorization"))
        if token is None:
            return _refuse(401, f"Not submitted: who are you? {HOW}.", bearer=True)
        client = self.guard.client_of(request.scope, request.headers)
        try:
            known = self.whoami.known(token)
            user = known if known is not None else await self.hub.run(self.whoami.user, token, client)
        except TokenRefused as error:
            return _refuse(401, f"Not submitted: {error}; {HOW}.", bearer=True)
        except TooManyLookups as error:
            return _refuse(429, f"Not submitted: {error}", retry_after=error.retry_after)
        except HubUnavailable as error:
            return _refuse(503, f"Not submitted: {error}; please try again in a minute.", retry_after=60)
        length = int(request.headers.get("content-length", "0"))  # said and within the cap: the keeper checked
        refused = self._limits(user, length)
        if refused is not None:
            return refused
        self._slots = self._slots or anyio.CapacityLimiter(AT_ONCE)
        try:
            async with self._slots:  # the others wait with their bodies unread
                async with request.form(max_files=1, max_fields=MAX_FIELDS, max_part_size=MAX_FIELD_BYTES) as form:
                    return await self._submit(user, form)
        except MultiPartException as error:  # a malformed body, too many fields, a field too long
            return _refuse(400, f"Not submitted: the body is not a form this route reads ({error.message}).")

    def _limits(self, user: str, length: int) -> JSONResponse | None:
        """The browser's per-user upload limits, on the same counters."""
        space = self.services.space
        wait = self.guard.uploads.take(user)
        if wait is not None:
            return _refuse(429, f"Too many uploads: {space.uploads_per_minute} a minute per user.", retry_after=wait)
        wait = self.guard.upload_bytes.take(user, length)
        if wait is not None:
            return _refuse(429, f"Too much uploaded: {space.upload_mb_per_hour} MB an hour per user.", retry_after=wait)
        return None

    async def _submit(self, user: str, form: Any) -> JSONResponse:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            return _refuse(400, "Not submitted: the form has no file; send the predictions TSV as the field 'file'.")
        fields = {k: v for k, v in form.multi_items() if k != "file"}
        if any(isinstance(v, UploadFile) for v in fields.values()):
            return _refuse(400, "Not submitted: one file only, in the field 'file'; the other fields are text.")
        notes = [
            f"the field {k!r} is ignored: you submit as {user}, the owner of the token" for k in IGNORED if k in fields
        ]
        split = str(fields.pop("split", ""))
        publish_text = str(fields.pop("publish", "")).strip().lower()
        if publish_text not in TRUE + FALSE:
            return _refuse(400, f"Not submitted: publish={publish_text[:20]!r}: expected true or false.")
        publish = publish_text in TRUE and split == Split.TEST  # as on the Submit tab: validation stays private
        # The declarations' fields (required for a public test submission; the service names what is missing).
        declared = {k: str(fields.pop(k)) for k in DECLARATION_FIELDS if k in fields}
        metadata = {k: v for k, v in fields.items() if k not in IGNORED}
        data = await upload.read()
        service = self.services.leaderboard

        def submit():
            self.services.warmup.wait()
            return service.submit(
                data,
                split=split,
                user=user,
                metadata=metadata,
                publish=publish,
                filename=upload.filename or "upload.tsv",
                declarations=declared,
            )

        try:
            receipt = await anyio.to_thread.run_sync(submit)
        except Rejected as error:
            report = error.report.as_dict() if error.report is not None else None
            return _refuse(400, f"Not submitted: {describe(error)}", report=report, user=user)
        except QuotaExceeded as error:
            return _refuse(429, f"Not submitted: {describe(error)}", user=user, retry_at=error.retry_at)
        except Exception as error:  # the store, the answer key: the page's words, details in the log
            return _refuse(503, f"Not submitted: {describe(error)}", user=user)
        self.services.wakeup()  # score it now, not at the next interval
        log.info("scripted submission %s by %s (%s split)", receipt.submission_id, user, receipt.split)
        return JSONResponse(
            {
                "submission_id": receipt.submission_id,
                "user": user,
                "split": receipt.split,
                "duplicate": receipt.duplicate,
                "created_at": receipt.created_at,
                "publish": publish,
                "quota_left": receipt.quota_left,
                "report": receipt.report.as_dict(),
                "message": _receipt_text(receipt.submission_id, receipt.split, receipt.duplicate, publish),
                "notes": notes,
            }
        )


def _bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _refuse(
    status: int, message: str, bearer: bool = False, retry_after: int | None = None, **extra: Any
) -> JSONResponse:
    headers = {"WWW-Authenticate": 'Bearer realm="huggingface.co"'} if bearer else {}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    body = {"error": " ".join(message.split()), **{k: v for k, v in extra.items() if v is not None}}
    return JSONResponse(body, status_code=status, headers=headers)


def _receipt_text(submission_id: str, split: str, duplicate: bool, publish: bool) -> str:
    """The Submit tab's receipt in words (``views.receipt_html`` without the HTML)."""
    if duplicate:
        text = f"You already sent this file for the {split} split: it is submission {submission_id}."
    else:
        text = f"Submitted: {submission_id} ({split} split). It is queued for scoring."
    if split == Split.TEST:
        text += " Once scored, a maintainer reviews it." if publish else " A private score: it will not be published."
    return text
