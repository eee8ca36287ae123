"""Which store: a Hub dataset repo or a local folder, behind one interface."""

from __future__ import annotations

from pathlib import Path

from leaderboard.storage.base import Storage
from leaderboard.storage.local import LocalStorage

HEAD_TTL_S = 2.0


def open_store(repo_id: str | None, local_folder: str | Path, token: str | None, *, private: bool = True) -> Storage:
    """A Hub dataset repo when ``repo_id`` is given, else the folder ``local_folder``.

    ``private`` is used when the Hub repo has to be created (the requests repo is private, the
    results repo public). In Hub mode ``local_folder`` is the download cache. The Hub client is
    imported only here, and only in Hub mode.
    """
    if repo_id:
        from leaderboard.storage.hub import HubStorage

        # The service reads a few dozen files in a burst; one head lookup per burst is plenty.
        # The commit count sits beside the download cache, shared by every process of this machine.
        commit_log = Path(local_folder).with_name(Path(local_folder).name + "-commits.json")
        return HubStorage(
            repo_id, token=token, private=private, cache_dir=local_folder, head_ttl_s=HEAD_TTL_S, commit_log=commit_log
        )
    return LocalStorage(local_folder)
