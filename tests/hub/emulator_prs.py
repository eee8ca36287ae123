"""The local Hub's commit operations, pull requests, discussions and a benchmark's leaderboard.

Learnt from the installed client (huggingface_hub 2.4.0):

- ``_commit_api._send_commit`` posts a commit to ``/api/{type}s/{id}/commit/main?create_pr=1`` and reads
  ``pullRequestUrl`` from the answer (``CommitInfo`` parses ``…/discussions/{N}`` into ``refs/pr/N``).
  The Hub opens discussion ``N`` and puts the commit on ``refs/pr/N``, branched off ``main`` (or off
  ``parentCommit``); ``main`` does not move. Its preupload carries ``?create_pr=1`` too.
- ``HfApi.get_repo_discussions`` reads ``GET /api/{type}s/{id}/discussions?p=&type=&status=&author=``:
  ``{"discussions": [{num, title, status, isPullRequest, createdAt, author: {name}, repo: {name, type}}],
  "count", "start"}``.
- ``HfApi.get_dataset_leaderboard`` reads ``GET /api/datasets/{id}/leaderboard``: a list of ``{rank,
  modelId, value, filename, verified, source, author: {name, type}, pullRequest, notes}``. Here it is
  derived, as on the Hub, from the ``.eval_results/*.yaml`` files of public model repos (on ``main``,
  and in open pull requests, with their number) whose ``dataset.id`` is this dataset and whose
  ``task_id`` is a task of its ``eval.yaml``; a dataset without ``eval.yaml`` is no benchmark (404).
- ``HfApi.get_user_overview`` reads ``GET /api/users/{name}/overview``, public to anyone: ``{_id, avatarUrl,
  fullname, user, type: "user", isPro, numModels, …, orgs: [{avatarUrl, name, fullname, type: "org"}]}``
  (``User`` parses ``user`` as the name and ``orgs`` as ``Organization``s); an unknown name is a 404.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import yaml
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.hub.hub_faults import Call
from tests.hub.hub_state import Blob, HubState, QuotaExceeded, Repo, User

if TYPE_CHECKING:
    from tests.hub.emulator import HubEmulator

PAGE = 50  # discussions per page, as on the Hub
DISCUSSIONS_DISABLED = "Discussions are disabled for this repo"


def _error(status: int, message: str, code: str | None = None, headers: dict | None = None) -> Response:
    from tests.hub.emulator import error

    return error(status, message, code, headers)


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def page_url(hub: HubEmulator, repo: Repo) -> str:
    return f"{hub.url}/{repo.repo_id}" if repo.repo_type == "model" else f"{hub.url}/datasets/{repo.repo_id}"


def apply_operation(state: HubState, repo: Repo, tree: dict[str, Blob], key: str, value: dict) -> Response | None:
    """One ndjson operation of a commit applied to ``tree``, or the Hub's refusal."""
    path = value["path"]
    if key == "file":
        data = base64.b64decode(value["content"])
        if data and state.wants_lfs(repo, path, len(data), data[:512]):
            return _error(400, f"Your push was rejected: {path} must be stored with LFS (large or binary)")
        tree[path] = Blob(data, lfs=False)
    elif key == "lfsFile":
        data = repo.lfs_objects.get(value["oid"])
        if data is None or len(data) != value.get("size", len(data)):
            return _error(422, f"Your push was rejected: the LFS object of {path} was never uploaded")
        tree[path] = Blob(data, lfs=True)
    elif key == "deletedFile":
        if path not in tree:
            return _error(404, "A file with this name doesn't exist", "EntryNotFound")
        del tree[path]
    elif key == "deletedFolder":
        doomed = [p for p in tree if p.startswith(path.rstrip("/") + "/")]
        if not doomed:
            return _error(404, "A folder with this name doesn't exist", "EntryNotFound")
        for gone in doomed:
            del tree[gone]
    else:
        return _error(400, f"emulator: unknown commit operation {key!r}")
    return None


def pull_request_commit(
    hub: HubEmulator, repo: Repo, rev: str, header: dict, operations: list[dict], user: User | None, call: Call
) -> Response:
    """``create_commit(..., create_pr=True)``: a new pull request holding the commit; ``main`` stays."""
    if rev != "main":
        return _error(400, f"emulator: a pull request is opened against main, not {rev!r}")
    if repo.discussions_disabled:
        return _error(403, DISCUSSIONS_DISABLED)
    if not operations:
        return _error(400, "No files have been modified since last commit")
    with hub.state.lock:
        parent = header.get("parentCommit")
        base = next((c for c in repo.commits if c.sha.startswith(parent.lower())), None) if parent else repo.head
        if base is None:
            return _error(404, f"Invalid rev id: {parent}", "RevisionNotFound")
        tree = dict(base.files)
        for op in operations:
            refusal = apply_operation(hub.state, repo, tree, op["key"], op["value"])
            if refusal is not None:
                return refusal
        try:
            hub.state.check_quota(repo)
        except QuotaExceeded as exceeded:
            return _error(429, str(exceeded), headers={"Retry-After": str(exceeded.retry_after_s)})
        author = user.name if user else "anonymous"
        pull, commit = hub.state.open_pull_request(
            repo, base, tree, header["summary"], header.get("description", ""), author
        )
    call.detail.update(oid=commit.sha, pr=pull.num)
    url = page_url(hub, repo)
    return JSONResponse(
        {
            "success": True,
            "commitOid": commit.sha,
            "commitUrl": f"{url}/commit/{commit.sha}",
            "pullRequestUrl": f"{url}/discussions/{pull.num}",
            "hookOutput": "",
        }  # fmt: skip
    )


def discussions(hub: HubEmulator, request: Request, repo: Repo) -> Response:
    """``get_repo_discussions``: pull requests only (the emulator opens no plain discussions), newest first."""
    query = request.query_params
    if query.get("type") not in (None, "all", "pull_request"):
        found = []
    else:
        with hub.state.lock:
            found = [
                p
                for p in reversed(repo.pull_requests)
                if query.get("status") in (None, "all", p.status) and query.get("author") in (None, p.author)
            ]
    start = int(query.get("p", "0")) * PAGE
    listed = [
        {
            "num": p.num,
            "title": p.title,
            "status": p.status,
            "isPullRequest": True,
            "createdAt": _iso(p.created_at),
            "author": {"name": p.author},
            "repo": {"name": repo.repo_id, "type": repo.repo_type},
        }  # fmt: skip
        for p in found[start : start + PAGE]
    ]
    return JSONResponse({"discussions": listed, "count": len(found), "start": start, "numClosedDiscussions": 0})


def _results(data: bytes) -> list[dict]:
    try:
        parsed = yaml.safe_load(data)
    except yaml.YAMLError:
        return []
    return [r for r in parsed if isinstance(r, dict)] if isinstance(parsed, list) else []


def leaderboard(hub: HubEmulator, dataset: Repo) -> Response:
    """``get_dataset_leaderboard``: every public model repo's results for this benchmark, best first."""
    card = dataset.head.files.get("eval.yaml")
    if dataset.repo_type != "dataset" or card is None:
        return _error(404, f"{dataset.repo_id} is not a benchmark: it has no eval.yaml")
    tasks = {t.get("id") for t in (yaml.safe_load(card.data) or {}).get("tasks", []) if isinstance(t, dict)}
    entries = []
    with hub.state.lock:
        for model in hub.state.models.values():
            if model.private:
                continue
            sources = [(model.head.files, None)] + [
                (p.commits[-1].files, p.num) for p in model.pull_requests if p.status == "open"
            ]
            seen: set[bytes] = set()
            for files, pull in sources:
                for path, blob in sorted(files.items()):
                    if not (path.startswith(".eval_results/") and path.endswith(".yaml")) or blob.data in seen:
                        continue
                    seen.add(blob.data)  # a PR's copy of a file on main is not new
                    for result in _results(blob.data):
                        ref = result.get("dataset") or {}
                        if ref.get("id") == dataset.repo_id and ref.get("task_id") in tasks:
                            entries.append(_entry(hub, model, path, result, pull))
    entries.sort(key=lambda e: -float(e["value"]))
    return JSONResponse([{"rank": i + 1, **e} for i, e in enumerate(entries)])


def _entry(hub: HubEmulator, model: Repo, path: str, result: dict, pull: int | None) -> dict:
    kind = "user" if any(u.name == model.namespace for u in hub.state.users.values()) else "org"
    entry = {"modelId": model.repo_id, "value": result.get("value"), "filename": path, "verified": False,
             "author": {"name": model.namespace, "type": kind}, "pullRequest": pull,
             "notes": result.get("notes")}  # fmt: skip
    if isinstance(result.get("source"), dict):
        entry["source"] = {**result["source"], "isExternal": True}
    return entry


def user_overview(hub: HubEmulator, name: str) -> Response:
    """``get_user_overview``: a user's public profile with their organisations (names compare case aside)."""
    with hub.state.lock:
        found = next((u for u in hub.state.users.values() if u.name.casefold() == name.casefold()), None)
    if found is None:
        return _error(404, "User not found")
    orgs = [{"avatarUrl": "", "name": org, "fullname": org, "type": "org"} for org in sorted(found.orgs)]
    return JSONResponse(
        {
            "_id": found.name.encode().hex()[:24],
            "avatarUrl": "",
            "fullname": found.name,
            "user": found.name,
            "type": "user",
            "isPro": False,
            "numModels": sum(1 for m in hub.state.models.values() if m.namespace == found.name),
            "numDatasets": 0,
            "numSpaces": 0,
            "numFollowers": 0,
            "numFollowing": 0,
            "orgs": orgs,
        }  # fmt: skip
    )
