"""The stores (a local folder, a Hub dataset repo) behind one interface, and what is kept in them: the registry
of submissions, the audit log, results, flags, locks, the answer keys and the Hub's commit quota."""

from __future__ import annotations

from leaderboard.storage.answer_keys import AnswerKeys, AnswerKeyUnavailable
from leaderboard.storage.audit import audit_entry, read_audit
from leaderboard.storage.base import (
    CommitLimitReached,
    Conflict,
    HubCallsState,
    HubFailure,
    Storage,
    StorageError,
    clock_time,
)
from leaderboard.storage.commit_quota import BudgetState, CommitBudget, Level
from leaderboard.storage.commit_shares import check_share
from leaderboard.storage.flags import KINDS, MAX_REASON, Flag, read_flags
from leaderboard.storage.local import LocalStorage
from leaderboard.storage.locks import process_lock
from leaderboard.storage.registry import Entry, Registry
from leaderboard.storage.results import read_rows, read_summary, result_files, rows_download_tsv
from leaderboard.storage.stores import open_store

__all__ = [
    "clock_time",
    "HubFailure",
    "HubCallsState",
    "audit_entry",
    "read_audit",
    "AnswerKeyUnavailable",
    "AnswerKeys",
    "BudgetState",
    "CommitBudget",
    "CommitLimitReached",
    "Conflict",
    "Entry",
    "Flag",
    "KINDS",
    "Level",
    "LocalStorage",
    "MAX_REASON",
    "Registry",
    "Storage",
    "StorageError",
    "check_share",
    "open_store",
    "process_lock",
    "read_flags",
    "read_rows",
    "read_summary",
    "result_files",
    "rows_download_tsv",
]
