"""The local Hub's file endpoints: repo info, listings, downloads, and the LFS transfer.

Downloads follow the Hub: ``resolve`` answers a regular file itself (``ETag`` = its git blob sha1,
``X-Repo-Commit``) and redirects an LFS file to a signed URL on another host (``X-Linked-Etag`` =
its sha256, ``X-Linked-Size``), which the client fetches without its token, as from a CDN. LFS
uploads are the "basic" transfer: the batch answer names a signed PUT URL on the storage host and a
verify URL on the Hub.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote

import yaml
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.hub.hub_faults import Call
from tests.hub.hub_state import Commit, Repo

if TYPE_CHECKING:
    from tests.hub.emulator import HubEmulator

_SECRET = b"local-hub-signing-key"
URL_LIFETIME_S = 3600


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _error(status: int, message: str, code: str | None = None, headers: dict | None = None) -> Response:
    from tests.hub.emulator import error

    return error(status, message, code, headers)


def front_matter_error(readme: str) -> str | None:
    """What is wrong with a README's YAML front matter, or ``None`` (``/api/validate-yaml``)."""
    if not readme.startswith("---"):
        return None
    block = readme[3:].split("\n---", 1)
    try:
        data = yaml.safe_load(block[0])
    except yaml.YAMLError as problem:
        return f"Invalid YAML in the README front matter: {problem}"
    if data is not None and not isinstance(data, dict):
        return "The README front matter must be a YAML mapping"
    return None


def repo_info(repo: Repo, commit: Commit, blobs: bool) -> dict:
    siblings = []
    for path, blob in sorted(commit.files.items()):
        sibling: dict = {"rfilename": path}
        if blobs:
            entry = blob.entry(path)
            sibling.update(size=entry["size"], blobId=entry["oid"])
            if "lfs" in entry:
                pointer_size = entry["lfs"]["pointerSize"]
                sibling["lfs"] = {"size": entry["size"], "sha256": blob.sha256, "pointerSize": pointer_size}
        siblings.append(sibling)
    card = None
    readme = commit.files.get("README.md")
    if readme is not None and front_matter_error(readme.data.decode("utf-8", "replace")) is None:
        text = readme.data.decode("utf-8", "replace")
        card = yaml.safe_load(text[3:].split("\n---", 1)[0]) if text.startswith("---") else None
    return {
        "_id": hashlib.sha1(repo.repo_id.encode()).hexdigest()[:24],
        "id": repo.repo_id,
        "author": repo.namespace,
        "sha": commit.sha,
        "private": repo.private,
        "gated": False,
        "disabled": False,
        "downloads": 0,
        "likes": 0,
        "tags": [],
        "createdAt": _iso(repo.commits[0].at),
        "lastModified": _iso(commit.at),
        "siblings": siblings,
        **({"cardData": card} if isinstance(card, dict) else {}),
    }


def _entries(hub: HubEmulator, repo: Repo, commit: Commit, paths: list[str], expand: bool) -> list[dict]:
    """Tree entries (files and folders) for ``paths`` at ``commit``; ``expand`` adds each one's last commit."""
    found = []
    for path in paths:
        blob = commit.files.get(path)
        if blob is not None:
            entry = blob.entry(path)
        else:
            inside = sorted(p for p in commit.files if p.startswith(path + "/"))
            tree_id = hashlib.sha1("".join(inside).encode() + commit.sha.encode()).hexdigest()
            entry = {"type": "directory", "oid": tree_id, "size": 0, "path": path}
        if expand:
            last = hub.state.last_commit_of(repo, commit, path)
            entry["lastCommit"] = {"id": last.sha, "title": last.message, "date": _iso(last.at)}
        found.append(entry)
    return found


def _folders_of(paths: list[str]) -> set[str]:
    return {"/".join(p.split("/")[:depth]) for p in paths for depth in range(1, p.count("/") + 1)}


async def paths_info(hub: HubEmulator, request: Request, params: dict, repo: Repo) -> Response:
    # HfApi.get_paths_info -> POST /api/datasets/{id}/paths-info/{rev}, form: paths=…&paths=…&expand=…
    commit = repo.at(params["rev"])
    if commit is None:
        return _error(404, f"Invalid rev id: {params['rev']}", "RevisionNotFound")
    form = parse_qs((await request.body()).decode(), keep_blank_values=True)
    folders = _folders_of(list(commit.files))
    wanted = [p.strip("/") for p in form.get("paths", [])]
    present = [p for p in dict.fromkeys(wanted) if p in commit.files or p in folders]  # missing paths: left out
    return JSONResponse(_entries(hub, repo, commit, present, form.get("expand", ["False"])[0].lower() == "true"))


async def tree(hub: HubEmulator, request: Request, params: dict, repo: Repo) -> Response:
    # HfApi.list_repo_tree -> GET /api/datasets/{id}/tree/{rev}[/{path}]?recursive=&expand=, paginated by Link
    commit = repo.at(params["rev"])
    if commit is None:
        return _error(404, f"Invalid rev id: {params['rev']}", "RevisionNotFound")
    folder = params.get("path", "").strip("/")
    query = request.query_params
    recursive, expand = query.get("recursive") == "true", query.get("expand") == "true"
    inside = [p for p in commit.files if not folder or p.startswith(folder + "/")]
    if folder and not inside:
        return _error(404, f"{folder} does not exist on {params['rev']}", "EntryNotFound")
    relative = {p: p[len(folder) + 1 :] if folder else p for p in inside}
    files = [p for p in inside if recursive or "/" not in relative[p]]
    folders = {f"{folder}/{f}" if folder else f for f in _folders_of(list(relative.values()))}
    if not recursive:
        folders = {f for f in folders if "/" not in (f[len(folder) + 1 :] if folder else f)}
    everything = sorted(folders) + sorted(files)  # the Hub lists folders first
    page_size = 50 if expand else hub.page_size
    start = int(base64.urlsafe_b64decode(query["cursor"]).decode()) if "cursor" in query else 0
    page = everything[start : start + page_size]
    headers = {}
    if start + page_size < len(everything):
        cursor = base64.urlsafe_b64encode(str(start + page_size).encode()).decode()
        nxt = f"{hub.url}{request.url.path}?recursive={str(recursive).lower()}&expand={str(expand).lower()}"
        headers["Link"] = f'<{nxt}&cursor={cursor}>; rel="next"'
    return JSONResponse(_entries(hub, repo, commit, page, expand), headers=headers)


def _ranged(request: Request, data: bytes, headers: dict[str, str]) -> Response:
    """``data``, or the part a ``Range: bytes=a-b`` header asks for (206)."""
    spec = request.headers.get("range", "")
    if request.method == "HEAD":
        return Response(b"", headers={**headers, "Content-Length": str(len(data)), "Accept-Ranges": "bytes"})
    if not spec.startswith("bytes="):
        return Response(data, headers={**headers, "Accept-Ranges": "bytes"})
    first, _, last = spec[len("bytes=") :].partition("-")
    if first == "":  # a suffix: the last n bytes
        start, end = max(0, len(data) - int(last)), len(data) - 1
    else:
        start, end = int(first), min(int(last) if last else len(data) - 1, len(data) - 1)
    if start >= len(data) or start > end:
        return Response(b"", status_code=416, headers={"Content-Range": f"bytes */{len(data)}"})
    return Response(
        data[start : end + 1], status_code=206, headers={**headers, "Content-Range": f"bytes {start}-{end}/{len(data)}"}
    )


def _signature(method: str, repo_id: str, oid: str, expires: int) -> str:
    return hmac.new(_SECRET, f"{method}:{repo_id}:{oid}:{expires}".encode(), hashlib.sha256).hexdigest()


def _signed(hub: HubEmulator, route: str, method: str, repo_id: str, oid: str) -> str:
    expires = int(time.time()) + URL_LIFETIME_S
    query = f"expires={expires}&sig={_signature(method, repo_id, oid, expires)}"
    return f"{hub.storage_url}/{route}/{quote(repo_id)}/{oid}?{query}"


def _signature_ok(request: Request, method: str, repo_id: str, oid: str) -> bool:
    try:
        expires = int(request.query_params.get("expires", ""))
    except ValueError:
        return False
    expected = _signature(method, repo_id, oid, expires)
    return expires > time.time() and hmac.compare_digest(expected, request.query_params.get("sig", ""))


async def resolve(hub: HubEmulator, request: Request, params: dict, repo: Repo, call: Call) -> Response:
    # file_download.get_hf_file_metadata (HEAD) and http_get (GET) -> /datasets/{id}/resolve/{rev}/{path}
    call.detail = {"revision": params["rev"], "file": params["path"]}
    commit = repo.at(params["rev"])
    if commit is None:
        return _error(404, f"Invalid rev id: {params['rev']}", "RevisionNotFound")
    blob = commit.files.get(params["path"])
    if blob is None:
        return _error(404, "Entry not found", "EntryNotFound", {"X-Repo-Commit": commit.sha})
    headers = {"X-Repo-Commit": commit.sha, "ETag": f'"{blob.oid}"'}
    if blob.lfs:
        location = _signed(hub, "cdn", "GET", repo.repo_id, blob.sha256)
        headers.update(Location=location, **{"X-Linked-Etag": f'"{blob.sha256}"', "X-Linked-Size": str(len(blob.data))})
        return Response(b"", status_code=302, headers=headers)
    return _ranged(request, blob.data, headers)


async def cdn(hub: HubEmulator, request: Request, params: dict) -> Response:
    repo_id = f"{params['ns']}/{params['name']}"
    repo = hub.state.repo(repo_id)
    if repo is None or not _signature_ok(request, "GET", repo_id, params["oid"]):
        return Response(b"AccessDenied: bad or expired signature", status_code=403)
    data = repo.lfs_objects.get(params["oid"])
    if data is None:
        return Response(b"NoSuchKey", status_code=404)
    return _ranged(request, data, {"ETag": f'"{params["oid"]}"'})


async def lfs_batch(hub: HubEmulator, request: Request, repo: Repo) -> Response:
    # lfs.post_lfs_batch_info -> POST /datasets/{id}.git/info/lfs/objects/batch (basic transfer only)
    payload = json.loads(await request.body())
    if payload.get("operation") != "upload" or "basic" not in payload.get("transfers", ["basic"]):
        return _error(400, "emulator: only LFS uploads with the basic transfer are served (disable Xet)")
    objects = []
    for item in payload["objects"]:
        answer = {"oid": item["oid"], "size": item["size"], "authenticated": True}
        if item["oid"] not in repo.lfs_objects:
            verify = f"{hub.url}/datasets/{repo.repo_id}.git/info/lfs/objects/verify"
            answer["actions"] = {
                "upload": {"href": _signed(hub, "lfs-upload", "PUT", repo.repo_id, item["oid"])},
                "verify": {"href": verify},
            }
        objects.append(answer)
    return JSONResponse({"transfer": "basic", "objects": objects}, media_type="application/vnd.git-lfs+json")


async def lfs_upload(hub: HubEmulator, request: Request, params: dict) -> Response:
    # lfs._upload_single_part -> PUT {signed href}, the raw bytes, no token (as to S3)
    repo_id = f"{params['ns']}/{params['name']}"
    repo = hub.state.repo(repo_id)
    if repo is None or not _signature_ok(request, "PUT", repo_id, params["oid"]):
        return Response(b"AccessDenied: bad or expired signature", status_code=403)
    data = await request.body()
    if hashlib.sha256(data).hexdigest() != params["oid"]:
        return Response(b"BadDigest: the body does not match the object id", status_code=400)
    with hub.state.lock:
        repo.lfs_objects[params["oid"]] = data
    return Response(b"", headers={"ETag": f'"{hashlib.md5(data).hexdigest()}"'})


async def lfs_verify(request: Request, repo: Repo) -> Response:
    # lfs.lfs_upload (verify action) -> POST …/lfs/objects/verify {"oid", "size"}
    payload = json.loads(await request.body())
    data = repo.lfs_objects.get(payload.get("oid", ""))
    if data is None or len(data) != payload.get("size"):
        return _error(404, f"LFS object {payload.get('oid')} was not uploaded (or has another size)")
    return JSONResponse({"success": True})
