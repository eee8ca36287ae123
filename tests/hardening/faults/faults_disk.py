"""A disk that fills up, without root or a loop device: ENOSPC injected under one folder.

``FullDisk(root, free=n)`` patches ``open`` (and ``io.open``, which ``pathlib`` uses) and
``os.mkdir`` for paths under ``root``: writes use up the ``free`` bytes and, once they are gone,
fail with ``OSError(ENOSPC)`` after writing what still fit (as a real disk does, so a half-written
file exists until someone removes it); a new folder costs one 4 KiB block. Deleting a file or a
folder gives its space back. ``free = None`` is plenty of space (it came back). Everything outside ``root``,
and reads, are untouched.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

BLOCK = 4096


class FullDisk:
    def __init__(self, root: Path, free: int | None = 0) -> None:
        self.root = str(Path(root).resolve())
        self.free = free
        self.refused = 0  # ENOSPC errors raised
        self._open, self._mkdir, self._rmdir, self._unlink = builtins.open, os.mkdir, os.rmdir, os.unlink

    def install(self, monkeypatch) -> FullDisk:
        monkeypatch.setattr(builtins, "open", self.open)
        monkeypatch.setattr(io, "open", self.open)
        monkeypatch.setattr(os, "mkdir", self.mkdir)
        monkeypatch.setattr(os, "rmdir", self.rmdir)
        monkeypatch.setattr(os, "unlink", self.unlink)
        monkeypatch.setattr(os, "remove", self.unlink)
        return self

    def under(self, path: object, dir_fd: int | None = None) -> bool:
        if isinstance(path, int):
            return False
        text = os.fsdecode(path)
        if dir_fd is not None:
            text = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), text)
        return os.path.abspath(text).startswith(self.root)

    def take(self, wanted: int) -> int:
        """How many of ``wanted`` bytes fit (the caller writes those, then fails with ENOSPC)."""
        if self.free is None or wanted <= self.free:
            self.free = None if self.free is None else self.free - wanted
            return wanted
        fits, self.free = self.free, 0
        return fits

    def refuse(self, what: str) -> OSError:
        self.refused += 1
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), what)

    def open(self, file, mode="r", *args, **kwargs):
        handle = self._open(file, mode, *args, **kwargs)
        if not any(c in mode for c in "wax+") or not self.under(file):
            return handle
        return _Metered(handle, self, os.fsdecode(file))

    def mkdir(self, path, mode=0o777, *, dir_fd=None):
        if self.under(path, dir_fd) and self.free is not None and not os.path.lexists(path):
            if self.free < BLOCK:
                raise self.refuse(os.fsdecode(path))
            self.free -= BLOCK
        return self._mkdir(path, mode, dir_fd=dir_fd)

    def rmdir(self, path, *, dir_fd=None):
        self._rmdir(path, dir_fd=dir_fd)
        if self.free is not None and self.under(path, dir_fd):
            self.free += BLOCK

    def unlink(self, path, *, dir_fd=None):
        size = 0
        if self.under(path, dir_fd):
            try:
                size = os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_size
            except OSError:
                pass  # the real unlink says what is wrong
        self._unlink(path, dir_fd=dir_fd)
        if self.free is not None:
            self.free += size


class _Metered:
    """A file object whose writes draw on the disk's free bytes."""

    def __init__(self, handle, disk: FullDisk, name: str) -> None:
        self._handle, self._disk, self._name = handle, disk, name

    def write(self, data):
        size = len(data.encode() if isinstance(data, str) else data)
        fits = self._disk.take(size)
        if fits < size:
            self._handle.write(data[:fits])
            self._handle.flush()
            raise self._disk.refuse(self._name)
        return self._handle.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._handle.close()

    def __iter__(self):
        return iter(self._handle)

    def __getattr__(self, name: str):
        return getattr(self._handle, name)
