"""The local Hub's HTTP API: an ASGI app (Starlette requests and responses) over ``HubState``.

Serves dataset repositories, and model repositories as far as results that travel to the Hub need them
(repo info, pull-request commits, discussions, a user's public overview: ``emulator_prs.py``), tags
(``emulator_refs.py``: a revision may name one wherever revisions are read), and only
what this project's clients send (huggingface_hub 2.4.0, datasets 5.2.0; each handler names the client
function whose request it answers). Strict where
the Hub is: a stale ``parentCommit`` is a 412, a private repository is a 401 to a stranger and a
404 to a signed-in user without access, an invalid token is a 401 everywhere, an unknown route
is a 404 (recorded as kind ``unknown``, so a test sees what the emulator does not serve).

Routing is done here on the raw path (the client quotes revisions and tree paths with
``safe=""``) rather than with Starlette's router, because fault injection needs the connection
itself: uvicorn's ``send`` is a method of the request cycle that holds the transport, and a
connection reset is that transport aborted with ``SO_LINGER`` 0.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import socket
import struct
from collections.abc import Awaitable, Callable
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.hub import emulator_files as files
from tests.hub import emulator_prs as prs
from tests.hub import emulator_refs as refs
from tests.hub.hub_faults import Call, FaultPlan, Http, Lost, Race, Recorder, Reset, Slow
from tests.hub.hub_state import Blob, HubState, QuotaExceeded, Repo, User

BRANCH_MOVED = "The branch was updated since you opened this page. Please refresh and try again."
INVALID_TOKEN = "Invalid credentials in Authorization header"
_REPO = r"/api/(?P<rtype>dataset|model)s/(?P<ns>[^/]+)/(?P<name>[^/]+)"
ROUTES: list[tuple[str, str, re.Pattern[str]]] = [
    (method, kind, re.compile(f"^{pattern}$"))
    for method, kind, pattern in [
        ("POST", "create_repo", r"/api/repos/create"),
        ("GET", "whoami", r"/api/whoami-v2"),
        ("GET", "user_overview", r"/api/users/(?P<user>[^/]+)/overview"),
        ("GET", "agent_harnesses", r"/api/agent-harnesses"),
        ("POST", "validate_yaml", r"/api/validate-yaml"),
        ("GET", "repo_info", _REPO + r"(?:/revision/(?P<rev>[^/]+))?"),
        ("POST", "preupload", _REPO + r"/preupload/(?P<rev>[^/]+)"),
        ("POST", "commit", _REPO + r"/commit/(?P<rev>[^/]+)"),
        ("POST", "paths_info", _REPO + r"/paths-info/(?P<rev>[^/]+)"),
        ("POST", "create_tag", _REPO + r"/tag/(?P<rev>[^/]+)"),
        ("DELETE", "delete_tag", _REPO + r"/tag/(?P<tag>[^/]+)"),
        ("GET", "refs", _REPO + r"/refs"),
        ("GET", "discussions", _REPO + r"/discussions"),
        ("GET", "leaderboard", _REPO + r"/leaderboard"),
        ("GET", "tree", _REPO + r"/tree/(?P<rev>[^/]+)(?:/(?P<path>.+))?"),
        ("HEAD", "resolve", r"/datasets/(?P<ns>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)"),
        ("GET", "resolve", r"/datasets/(?P<ns>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)"),
        ("POST", "lfs_batch", r"/datasets/(?P<ns>[^/]+)/(?P<name>[^/]+)\.git/info/lfs/objects/batch"),
        ("POST", "lfs_verify", r"/datasets/(?P<ns>[^/]+)/(?P<name>[^/]+)\.git/info/lfs/objects/verify"),
        ("PUT", "lfs_upload", r"/lfs-upload/(?P<ns>[^/]+)/(?P<name>[^/]+)/(?P<oid>[0-9a-f]{64})"),
        ("GET", "cdn", r"/cdn/(?P<ns>[^/]+)/(?P<name>[^/]+)/(?P<oid>[0-9a-f]{64})"),
    ]
]


def error(status: int, message: str, code: str | None = None, headers: dict[str, str] | None = None) -> Response:
    """An error as the Hub sends it: JSON ``{"error": …}`` and the ``X-Error-*`` headers the client reads."""
    extra = {"X-Error-Message": message, **({"X-Error-Code": code} if code else {}), **(headers or {})}
    return JSONResponse({"error": message}, status_code=status, headers=extra)


class HubEmulator:
    """The ASGI app. ``url`` is where it is served; ``storage_url`` the other host its signed LFS URLs use."""

    def __init__(self, state: HubState, plan: FaultPlan, recorder: Recorder) -> None:
        self.state, self.plan, self.record = state, plan, recorder
        self.url = self.storage_url = ""  # set by the server once the port is known
        self.page_size = 1000  # tree entries per page (the Hub: 1000; 50 with expand)
        self.latency_s = 0.0  # added to every answer, as a network and a busy Hub add it

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":  # lifespan: nothing to set up
            message = await receive()
            await send({"type": message["type"] + ".complete"})
            return
        request = Request(scope, receive)
        raw = scope.get("raw_path", scope["path"].encode()).decode("ascii").partition("?")[0]
        kind, params = self._route(request.method, raw)
        user, refusal = self._authenticate(request)
        repo_id = f"{params['ns']}/{params['name']}" if "ns" in params else None
        call = self.record.add(
            Call(
                kind,
                request.method,
                raw,
                request.url.query,
                repo_id,
                user.name if user else None,
                "authorization" in request.headers,
            )  # fmt: skip
        )
        if kind == "commit":  # known before any fault is chosen, so a test can aim at one commit by its message
            call.detail = _commit_header(await request.body())
        fault = self.plan.next(call) if kind != "unknown" else None
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        if isinstance(fault, Reset):
            return _reset(send, call)
        if isinstance(fault, Http):
            headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else None
            response = error(fault.status, f"injected {fault.status}", headers=headers)
        elif refusal is not None:
            response = refusal
        else:
            if isinstance(fault, Race) and repo_id and self.state.repo(repo_id):
                self.state.external_commit(repo_id, fault.puts, fault.deletes)
            response = await self._handle(kind, request, params, user, call)
            if isinstance(fault, Lost):
                if fault.status is None:
                    return _reset(send, call)
                response = error(fault.status, f"injected {fault.status} after processing")
            elif isinstance(fault, Slow):
                await asyncio.sleep(fault.seconds)
        call.status = response.status_code
        await response(scope, receive, send)

    def _route(self, method: str, raw_path: str) -> tuple[str, dict[str, str]]:
        for route_method, kind, pattern in ROUTES:
            if route_method == method and (found := pattern.match(raw_path)):
                return kind, {k: unquote(v) for k, v in found.groupdict().items() if v is not None}
        return "unknown", {}

    def _authenticate(self, request: Request) -> tuple[User | None, Response | None]:
        header = request.headers.get("authorization")
        if header is None:
            return None, None
        scheme, _, token = header.partition(" ")
        user = self.state.user(token.strip()) if scheme.lower() == "bearer" else None
        return (user, None) if user else (None, error(401, INVALID_TOKEN))

    async def _handle(self, kind: str, request: Request, params: dict, user: User | None, call: Call) -> Response:
        handler: Callable[..., Awaitable[Response]] = getattr(self, f"_{kind}", self._unknown)
        if kind in ("lfs_upload", "cdn", "create_repo", "whoami", "user_overview", "agent_harnesses", "validate_yaml",
                    "unknown"):  # fmt: skip
            return await handler(request, params, user, call)
        # A pull request (``?create_pr=1``) needs no write access: any signed-in user may open one on a repo they see.
        proposal = request.query_params.get("create_pr") == "1" and kind in ("preupload", "commit")
        write = kind in ("preupload", "commit", "lfs_batch", "lfs_verify", "create_tag", "delete_tag") and not proposal
        repo = self.access(f"{params['ns']}/{params['name']}", user, write, params.get("rtype", "dataset"))
        if proposal and isinstance(repo, Repo) and user is None:
            return error(401, "You must be authenticated to open a pull request")
        if isinstance(repo, Response):
            return repo
        return await handler(request, params, user, call, repo)

    def access(self, repo_id: str, user: User | None, write: bool, repo_type: str = "dataset") -> Repo | Response:
        """The repository, or the Hub's refusal: a private one is indistinguishable from a missing one."""
        repo = self.state.repo(repo_id, repo_type)
        if repo is None or (repo.private and not (user and user.member_of(repo.namespace))):
            if user is None:
                return error(401, "Repository not found", "RepoNotFound")
            return error(404, "Repository not found", "RepoNotFound")
        if write and user is None:
            return error(401, "You must be authenticated to write to this repository")
        if write and (not user or not user.member_of(repo.namespace) or user.role != "write"):
            return error(403, f"You don't have the rights to write to {repo_id}")
        return repo

    # -- account and repositories ---------------------------------------------------------------

    async def _unknown(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        return error(404, f"emulator: no route for {request.method} {call.path}")

    async def _whoami(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        # HfApi.whoami -> GET /api/whoami-v2
        if user is None:
            return error(401, INVALID_TOKEN)
        orgs = [{"type": "org", "name": org} for org in sorted(user.orgs)]
        token = {"displayName": "emulator", "role": user.role}
        return JSONResponse({"type": "user", "id": user.name, "name": user.name, "fullname": user.name,
                             "orgs": orgs, "auth": {"type": "access_token", "accessToken": token}})  # fmt: skip

    async def _user_overview(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        return prs.user_overview(self, params["user"])

    async def _agent_harnesses(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        # utils/_detect_agent._fetch_registry (best-effort telemetry of the client): an empty registry
        return JSONResponse({"standardEnvVars": [], "harnesses": {}})

    async def _validate_yaml(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        # HfApi._validate_yaml (create_commit with a README.md) -> POST /api/validate-yaml
        payload = json.loads(await request.body())
        problem = files.front_matter_error(payload.get("content", ""))
        if problem:
            return JSONResponse({"errors": [{"message": problem}], "warnings": []}, status_code=400)
        return JSONResponse({"errors": [], "warnings": []})

    async def _create_repo(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        # HfApi.create_repo -> POST /api/repos/create {"name", "organization", "visibility", "type"}
        payload = json.loads(await request.body())
        call.detail = {"payload": payload}
        if user is None:
            return error(401, "You must be authenticated to create a repository")
        repo_type = payload.get("type") or "model"
        if repo_type not in ("dataset", "model"):
            return error(400, f"emulator: only dataset and model repositories are served, not {repo_type!r}")
        namespace = payload.get("organization") or user.name
        repo_id = f"{namespace}/{payload['name']}"
        url = f"{self.url}/datasets/{repo_id}" if repo_type == "dataset" else f"{self.url}/{repo_id}"
        if not user.member_of(namespace) or user.role != "write":
            return error(403, f"You don't have the rights to create a {repo_type} under the namespace {namespace!r}")
        visibility = payload.get("visibility")
        if visibility not in (None, "public", "private"):
            return error(400, f"Invalid visibility {visibility!r}")
        private = visibility == "private" if visibility is not None else bool(payload.get("private", False))
        with self.state.lock:
            if self.state.repo(repo_id, repo_type) is not None:
                taken = {"error": f"You already created this {repo_type} repo", "url": url}
                return JSONResponse(taken, status_code=409)
            self.state.create(repo_id, private, user.name, repo_type)
        return JSONResponse({"url": url, "name": repo_id, "id": repo_id})

    async def _repo_info(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        # HfApi.dataset_info / model_info / repo_info -> GET /api/{datasets|models}/{id}[/revision/{rev}]
        commit = repo.at(params.get("rev", "main"))
        if commit is None:
            return error(404, f"Invalid rev id: {params.get('rev')}", "RevisionNotFound")
        return JSONResponse(files.repo_info(repo, commit, blobs=request.query_params.get("blobs") == "true"))

    # -- commits --------------------------------------------------------------------------------

    async def _preupload(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        # _commit_api._fetch_upload_modes -> POST /api/{type}s/{id}/preupload/{rev}[?create_pr=1] {"files": [...]}
        commit = repo.at(params["rev"])
        if commit is None:
            return error(404, f"Invalid rev id: {params['rev']}", "RevisionNotFound")
        answers = []
        for item in json.loads(await request.body())["files"]:
            sample = base64.b64decode(item["sample"])
            lfs = self.state.wants_lfs(repo, item["path"], int(item["size"]), sample)
            existing = commit.files.get(item["path"])
            oid = None if existing is None else (existing.sha256 if existing.lfs else existing.oid)
            answers.append({"path": item["path"], "uploadMode": "lfs" if lfs else "regular",
                            "shouldIgnore": False, "oid": oid})  # fmt: skip
        call.detail = {"modes": {a["path"]: a["uploadMode"] for a in answers}}
        return JSONResponse({"files": answers, "commitOid": commit.sha})

    async def _commit(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        # _commit_api._send_commit -> POST /api/{type}s/{id}/commit/{rev}[?create_pr=1], ndjson: header, file, …
        lines = [json.loads(line) for line in (await request.body()).splitlines() if line.strip()]
        if not lines or lines[0].get("key") != "header" or not lines[0]["value"].get("summary"):
            return error(400, "a commit needs a header with a summary first")
        header, operations = lines[0]["value"], lines[1:]
        parent = header.get("parentCommit")
        call.detail["operations"] = [(op["key"], op["value"]["path"]) for op in operations]
        call.detail["create_pr"] = request.query_params.get("create_pr") == "1"
        call.detail["files"] = {op["value"]["path"]: base64.b64decode(op["value"]["content"]) for op in operations
                                if op["key"] == "file"}  # fmt: skip
        if call.detail["create_pr"]:
            return prs.pull_request_commit(self, repo, params["rev"], header, operations, user, call)
        if params["rev"] != "main":
            return error(404, f"emulator: only main is served, not {params['rev']!r}", "RevisionNotFound")
        if not operations:
            return error(400, "No files have been modified since last commit")
        with self.state.lock:
            head = repo.head
            if parent is not None and not head.sha.startswith(parent.lower()):
                return error(412, BRANCH_MOVED)
            tree = dict(head.files)
            for op in operations:
                refusal = self._apply_operation(repo, tree, op["key"], op["value"])
                if refusal is not None:
                    return refusal
            try:
                self.state.check_quota(repo)
            except QuotaExceeded as exceeded:
                retry = {"Retry-After": str(exceeded.retry_after_s)} if self.state.quota.retry_after else None  # type: ignore[union-attr]
                return error(429, str(exceeded), headers=retry)
            commit = self.state.apply(repo, tree, header["summary"], header.get("description", ""), user.name)  # type: ignore[union-attr]
        call.detail["oid"] = commit.sha
        url = f"{prs.page_url(self, repo)}/commit/{commit.sha}"
        return JSONResponse({"success": True, "commitOid": commit.sha, "commitUrl": url, "hookOutput": ""})

    def _apply_operation(self, repo: Repo, tree: dict[str, Blob], key: str, value: dict) -> Response | None:
        return prs.apply_operation(self.state, repo, tree, key, value)

    # -- reading files and LFS: emulator_files.py ----------------------------------------------

    async def _paths_info(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await files.paths_info(self, request, params, repo)

    async def _tree(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await files.tree(self, request, params, repo)

    async def _resolve(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await files.resolve(self, request, params, repo, call)

    async def _cdn(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        return await files.cdn(self, request, params)

    async def _lfs_batch(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await files.lfs_batch(self, request, repo)

    async def _lfs_upload(self, request: Request, params: dict, user: User | None, call: Call) -> Response:
        return await files.lfs_upload(self, request, params)

    async def _lfs_verify(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await files.lfs_verify(request, repo)

    # -- tags: emulator_refs.py -----------------------------------------------------------------

    async def _create_tag(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await refs.create_tag(self.state, request, params, repo)

    async def _delete_tag(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return await refs.delete_tag(self.state, params, repo)

    async def _refs(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return refs.refs(request, repo)

    async def _discussions(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return prs.discussions(self, request, repo)

    async def _leaderboard(self, request: Request, params: dict, user: User | None, call: Call, repo: Repo) -> Response:
        return prs.leaderboard(self, repo)


def _commit_header(body: bytes) -> dict:
    """The commit's message and parent, from the first ndjson line (empty when it is not one)."""
    try:
        first = json.loads(body.split(b"\n", 1)[0])
        return {"message": first["value"]["summary"], "parent": first["value"].get("parentCommit")}
    except (ValueError, KeyError, TypeError):
        return {}


def _reset(send: Callable, call: Call) -> None:
    """Abort the connection with a TCP reset (SO_LINGER 0): the client sees "connection reset by peer"."""
    transport = send.__self__.transport  # type: ignore[attr-defined]  # uvicorn's RequestResponseCycle
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
    call.status = None
