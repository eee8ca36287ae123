"""The uploaded files the Submit tab holds on to: one per user at most, gone once refused or stored.

Gradio keeps every upload in its cache folder (``GRADIO_TEMP_DIR``) until ``delete_cache`` removes
it an hour later. The Submit tab needs a file between its check and its submission, and no longer:
a file the check refused is deleted at once, a file that passed is kept until it is submitted (the
service stores its own copy) or the same user checks another, and then deleted. Only files inside
Gradio's upload folder are ever deleted.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from gradio.utils import get_upload_folder

log = logging.getLogger(__name__)


class Uploads:
    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder or get_upload_folder()).resolve()
        self._held: dict[str, str] = {}  # user -> the path of their checked, not yet submitted file
        self._lock = threading.Lock()

    def ours(self, path: str | None) -> bool:
        """Whether ``path`` is an upload in Gradio's folder (anything else is never touched)."""
        if not path:
            return False
        resolved = Path(path).resolve()
        return resolved != self.folder and resolved.is_relative_to(self.folder)

    def discard(self, path: str | None) -> None:
        """Delete an uploaded file and its folder (Gradio puts each upload in a folder named by its hash)."""
        if not self.ours(path):
            return
        file = Path(str(path)).resolve()
        file.unlink(missing_ok=True)
        try:
            if file.parent != self.folder:
                file.parent.rmdir()  # only when empty: another upload with the same hash may share it
        except OSError:
            pass
        log.info("deleted upload %s", file.name)

    def hold(self, user: str, path: str) -> None:
        """``user``'s file passed the check: keep it for the submission, drop the one they held before."""
        with self._lock:
            previous, self._held[user] = self._held.get(user), path
        if previous and previous != path:
            self.discard(previous)

    def release(self, user: str, path: str | None) -> None:
        """The file was refused or stored: delete it now."""
        with self._lock:
            if self._held.get(user) == path:
                del self._held[user]
        self.discard(path)
