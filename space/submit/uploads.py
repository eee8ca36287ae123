"""The uploaded files the Submit tab holds on to: each user's own, one per user at most, gone once refused or stored.

Gradio keeps every upload in its cache folder (``GRADIO_TEMP_DIR``) until ``delete_cache`` removes
it later, in a folder named by the file's content hash: two users who upload the same file get the
same path. So the first check of an upload *claims* it for the user: a hard link (a copy on a file
system without them) in a folder of that user's, which the check and the submission then read.
Nothing one user does deletes another's file: a refused or stored file loses the user's own copy,
and the shared name only when it is still the upload this user claimed (a later upload of the same
file by anyone replaced it, and is left to its owner). A file the check refused is deleted at once;
a file that passed is kept until it is submitted (the service stores its own copy) or the same user
checks another. Only files inside Gradio's upload folder are ever deleted.

The tab's listeners read the file input without Gradio's preprocessing (``path_of``), which would leave an
empty temporary file in the cache folder on every event.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from space.workspace.gradio_internals import upload_folder

log = logging.getLogger(__name__)
CLAIMS = ".claimed"  # inside the upload folder: same file system (a hard link is free), never served by Gradio


def path_of(value: object) -> str | None:
    """The path of a file input's value as the page sends it (``FileData`` as a dict), for listeners with
    ``preprocess=False``: Gradio's own preprocessing of a file input opens a ``NamedTemporaryFile(delete=False)``
    in the cache folder and never writes or removes it (``File._process_single_file``), so every check and
    submission left an empty file behind. Gradio has checked the path is an upload before this runs."""
    if isinstance(value, dict):
        path = value.get("path")
        return str(path) if path else None
    return str(value) if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Claim:
    upload: Path  # the path Gradio gave the upload (the page sends it back with each event)
    own: Path  # the user's own copy of it
    stamp: tuple[int, int, int]  # the upload's identity when claimed: another upload of the same file changes it


class Uploads:
    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder or upload_folder()).resolve()
        self._held: dict[str, Claim] = {}  # user -> their checked (or being checked), not yet submitted file
        self._lock = threading.Lock()

    def ours(self, path: str | Path | None) -> bool:
        """Whether ``path`` is an upload in Gradio's folder (anything else is never touched)."""
        if not path:
            return False
        resolved = Path(path).resolve()
        return resolved != self.folder and resolved.is_relative_to(self.folder)

    def claim(self, user: str, path: str) -> str:
        """The user's own copy of the upload at ``path`` (made now, or the one made at their last check of it);
        ``path`` itself when it is not an upload. ``FileNotFoundError`` when the upload is gone."""
        if not self.ours(path):
            return path
        upload = Path(path).resolve()
        with self._lock:
            held = self._held.get(user)
            if held is not None and held.upload == upload and held.own.is_file():
                return str(held.own)
        stamp = _stamp(upload)  # FileNotFoundError: refused, submitted, or never uploaded
        own = self._own_path(user, upload)
        own.parent.mkdir(parents=True, exist_ok=True)
        own.unlink(missing_ok=True)
        try:
            os.link(upload, own)
        except FileNotFoundError:
            raise
        except OSError:  # a file system without hard links: a copy
            shutil.copyfile(upload, own)
        with self._lock:
            previous, self._held[user] = self._held.get(user), Claim(upload, own, stamp)
        if previous is not None and previous.upload != upload:
            self._drop(previous)
        return str(own)

    def own(self, user: str, path: str | None) -> str | None:
        """The user's copy of ``path`` when they claimed it, else ``path`` (a claim is made at the check)."""
        with self._lock:
            held = self._held.get(user)
        if path and held is not None and self.ours(path) and held.upload == Path(path).resolve():
            return str(held.own)
        return path

    def release(self, user: str, path: str | None) -> None:
        """The user's file was refused or stored: delete their copy, and the upload if it is still theirs."""
        if not path:
            return
        resolved = Path(path).resolve()
        with self._lock:
            held = self._held.get(user)
            if held is not None and resolved in (held.upload, held.own):
                del self._held[user]
            else:
                held = None
        if held is not None:
            self._drop(held)

    def drop(self, user: str) -> None:
        """The user removed their file from the form: it will not be submitted."""
        with self._lock:
            held = self._held.pop(user, None)
        if held is not None:
            self._drop(held)

    def _drop(self, claim: Claim) -> None:
        try:
            theirs = _stamp(claim.upload) == claim.stamp  # nobody uploaded the same file since: still this upload
        except OSError:
            theirs = False
        if theirs:
            self._discard(claim.upload)
        self._discard(claim.own)

    def _own_path(self, user: str, upload: Path) -> Path:
        """``.claimed/<user's hash>/<upload's folder>/<name>``: the name kept, as the service stores it."""
        who = hashlib.sha256(user.casefold().encode()).hexdigest()[:24]
        return self.folder / CLAIMS / who / upload.parent.name / upload.name

    def _discard(self, path: Path) -> None:
        """Delete an uploaded file and its folder when empty (Gradio puts each upload in a folder of its own)."""
        if not self.ours(path):
            return
        path.unlink(missing_ok=True)
        folder = path.parent
        while folder != self.folder and folder.is_relative_to(self.folder):
            try:
                folder.rmdir()  # only when empty: another upload may share it
            except OSError:
                break
            folder = folder.parent
        log.info("deleted upload %s", path.name)


def _stamp(path: Path) -> tuple[int, int, int]:
    found = path.stat()
    return found.st_dev, found.st_ino, found.st_mtime_ns
