"""The local Hub's git references: tags made, deleted and listed, as the Hub answers ``HfApi``.

- ``create_tag`` -> ``POST /api/{type}s/{id}/tag/{revision}`` ``{"tag", "message"}``: 200; 409 when the tag
  exists, 404 ``RevisionNotFound`` for an unknown revision, 400 for a name git would refuse;
- ``delete_tag`` -> ``DELETE /api/{type}s/{id}/tag/{tag}``: 200; 404 ``RevisionNotFound`` when there is none;
- ``list_repo_refs`` -> ``GET /api/{type}s/{id}/refs[?include_prs=1]``: branches (``main``), tags, converts
  (none here) and, when asked, pull requests.

A tag names a commit for good: ``Repo.at`` resolves ``v1`` and ``refs/tags/v1`` wherever a revision is read
(repo info, tree, paths-info, resolve), so ``datasets.load_dataset(repo, revision="v1")`` reads the tagged tree.
"""

from __future__ import annotations

import json
import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.hub.hub_state import HubState, Repo

# What git accepts as a ref name, narrowed to what the tests need: no spaces, "..", control characters.
TAG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,127}")


def _error(status: int, message: str, code: str | None = None) -> Response:
    from tests.hub.emulator import error

    return error(status, message, code)


async def create_tag(state: HubState, request: Request, params: dict, repo: Repo) -> Response:
    try:
        payload = json.loads(await request.body())
    except ValueError:
        return _error(400, "a tag needs a JSON body {tag, message}")
    tag = str(payload.get("tag") or "")
    if not TAG_NAME.fullmatch(tag) or ".." in tag or tag.endswith((".", "/", ".lock")):
        return _error(400, f"Invalid tag name {tag[:80]!r}")
    with state.lock:
        commit = repo.at(params["rev"])
        if commit is None:
            return _error(404, f"Invalid rev id: {params['rev']}", "RevisionNotFound")
        if tag in repo.tags or tag == "main":
            return _error(409, f"Tag reference refs/tags/{tag} already exists")
        repo.tags[tag] = commit.sha
    return JSONResponse({})


async def delete_tag(state: HubState, params: dict, repo: Repo) -> Response:
    with state.lock:
        if repo.tags.pop(params["tag"], None) is None:
            return _error(404, f"Invalid rev id: refs/tags/{params['tag']}", "RevisionNotFound")
    return JSONResponse({})


def refs(request: Request, repo: Repo) -> Response:
    def ref(name: str, full: str, sha: str) -> dict[str, str]:
        return {"name": name, "ref": full, "targetCommit": sha}

    answer: dict[str, object] = {
        "branches": [ref("main", "refs/heads/main", repo.head.sha)],
        "converts": [],
        "tags": [ref(name, f"refs/tags/{name}", sha) for name, sha in sorted(repo.tags.items())],
    }
    if request.query_params.get("include_prs") in ("1", "true"):
        answer["pullRequests"] = [
            ref(f"refs/pr/{p.num}", f"refs/pr/{p.num}", p.commits[-1].sha) for p in repo.pull_requests if p.commits
        ]
    return JSONResponse(answer)
