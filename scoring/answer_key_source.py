"""Where a split's parquet files are, and which revision of the dataset they are.

A dataset is a local folder in the Hub layout (``data/{split}-*.parquet``) or a Hub repo id. Both
resolve to a ``SplitFiles``: the files in dataset order and a revision (the content hash of the
local files, or the Hub commit the files were resolved at). The cache key is made of it, and the
cache is built from those very files, so a key never names other data than it holds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import AnswerKeyError


@dataclass(frozen=True)
class SplitFiles:
    """One split of one dataset: local parquet paths, or ``hf://`` URLs pinned to a commit."""

    source: str  # the local folder (resolved), or the Hub repo id
    split: str
    revision: str
    files: tuple[str, ...]
    remote: bool = False

    def local_paths(self, token: str | None) -> list[Path]:
        """The files on this disk; a Hub dataset's are downloaded first, into the Hugging Face cache.

        The download goes through ``datasets`` (``hf_hub_download`` underneath), so it honours
        ``HF_HOME``/``HF_HUB_CACHE``, resumes, and is not repeated for files already cached. It
        does not retry a connection the Hub or its CDN resets (``hf_hub_download`` retries connect
        errors, timeouts and protocol errors, not a read error): the caller retries this step
        (``cached_answer_key``).
        """
        if not self.remote:
            return [Path(file) for file in self.files]
        import datasets  # deferred: only a cache build from the Hub needs it

        manager = datasets.DownloadManager(self.source, download_config=datasets.DownloadConfig(token=token))
        try:
            return [Path(path) for path in manager.download(list(self.files))]
        except Exception as error:  # not found, gated, no network: all reported alike
            raise AnswerKeyError(f"cannot load split {self.split!r} of dataset {self.source!r}: {error}") from error


def resolve_split(dataset: str | Path, split: str, token: str | None = None) -> SplitFiles:
    """The files and revision of ``split``: a local folder when the path exists, else a Hub repo id."""
    path = Path(dataset).expanduser()
    if path.exists():
        files = local_split_files(path, split)
        digest = hashlib.sha256()
        for file in files:
            digest.update(file.name.encode())
            digest.update(file_digest(file).encode())
        return SplitFiles(str(path.resolve()), split, "sha256:" + digest.hexdigest()[:16], tuple(map(str, files)))
    urls = _hub_split_files(str(dataset), split, token)
    return SplitFiles(str(dataset), split, _hub_revision(urls), tuple(urls), remote=True)


def dataset_revision(dataset: str | Path, split: str, token: str | None = None) -> tuple[str, str]:
    """``(source, revision)``: the Hub commit of a repo id, or a content hash of a local folder."""
    files = resolve_split(dataset, split, token)
    return files.source, files.revision


def local_split_files(folder: Path, split: str) -> list[Path]:
    files = sorted((folder / "data").glob(f"{split}-*.parquet"))
    if not files:
        raise AnswerKeyError(f"no data/{split}-*.parquet in {folder}: expected a dataset in the Hub layout")
    return files


def file_digest(file: Path) -> str:
    digest = hashlib.sha256()
    with open(file, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _hub_split_files(repo_id: str, split: str, token: str | None) -> list[str]:
    """The split's data files as ``datasets`` resolves them: ``hf://datasets/{repo}@{commit}/data/…``.

    When the Hub refuses the request (a wrong token) or fails, ``datasets`` may quietly fall back to
    the newest copy in its local cache: a builder with no data files, whose rows are old. That copy
    is refused here, so an answer key is never built from stale rows, and a wrong token reads "not
    authorised", not "has no split".
    """
    import datasets  # deferred: a second of import time the warm local path does not need
    from datasets.packaged_modules.cache.cache import Cache

    try:
        builder = datasets.load_dataset_builder(repo_id, token=token)
    except Exception as error:  # datasets raises many types for "cannot reach / no such repo"
        raise AnswerKeyError(f"cannot open dataset {repo_id!r}: {_hub_refusal(error)}") from error
    if isinstance(builder, Cache):
        raise AnswerKeyError(
            f"cannot open dataset {repo_id!r}: not authorised, or the Hub could not be reached (check that "
            "HF_TOKEN can read it); only an old local copy is cached, and it is never scored against"
        )
    files = [str(name) for name in (builder.config.data_files or {}).get(split) or []]
    if not files:
        raise AnswerKeyError(f"dataset {repo_id!r} has no split {split!r}")
    return files


def _hub_refusal(error: BaseException) -> str:
    """ "not authorised" when the Hub refused (401, 403, or a repository it will not name); else the error.

    Read off the error chain by name and status (``scoring`` does not import the Hub client).
    """
    refusals = {"RepositoryNotFoundError", "DatasetNotFoundError", "GatedRepoError"}
    cause: BaseException | None = error
    for _ in range(8):  # a chain is short; the bound guards against a cycle
        if cause is None:
            break
        status = getattr(getattr(cause, "response", None), "status_code", None)
        if type(cause).__name__ in refusals or status in (401, 403):
            return "not authorised, or no such dataset on the Hub (check that HF_TOKEN can read it)"
        cause = cause.__cause__ or cause.__context__
    return " ".join(str(error).split())


def _hub_revision(files: list[str]) -> str:
    """The commit the files were resolved at, read off their URLs (or a hash of the URLs)."""
    for name in files:
        if "@" in name:
            return name.split("@", 1)[1].split("/", 1)[0]
    return "files:" + hashlib.sha256("\n".join(files).encode()).hexdigest()[:16]
