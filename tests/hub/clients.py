"""Point the real ``huggingface_hub`` and ``datasets`` clients at a ``LocalHub``, unmodified.

Both libraries read ``HF_ENDPOINT``, ``HF_HOME``, the caches and ``HF_HUB_DISABLE_XET`` into module
constants at import time, and gradio imports them long before any test runs, so in this process
the constants are patched (with ``monkeypatch``, undone after the test) as the environment would
have set them; a child process gets the environment itself (``client_environ``). Xet is disabled:
the emulator serves the LFS "basic" transfer, not Xet storage.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hub.server import LocalHub


def client_environ(hub: LocalHub, home: Path, token: str | None) -> dict[str, str]:
    """The environment of a child process whose clients talk to ``hub`` (as ``token``'s user, or nobody)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING_FACE_"))}
    env.update(
        HF_ENDPOINT=hub.url,
        HF_HOME=str(home / "hf-home"),
        HF_HUB_DISABLE_XET="1",
        HF_HUB_DISABLE_TELEMETRY="1",
        HF_HUB_DISABLE_PROGRESS_BARS="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
    )
    if token is not None:
        env["HF_TOKEN"] = token
    return env


def point_clients_at(hub: LocalHub, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Make this process's clients talk to ``hub``, with their caches and token file under ``home``."""
    import datasets.config
    from huggingface_hub import constants

    for name in [k for k in os.environ if k.startswith(("HF_", "HUGGING_FACE_"))]:
        monkeypatch.delenv(name)  # no token, endpoint or cache of the machine leaks in
    for name, value in client_environ(hub, home, None).items():
        if name.startswith("HF_"):
            monkeypatch.setenv(name, value)
    hf_home = home / "hf-home"
    monkeypatch.setattr(constants, "ENDPOINT", hub.url)
    monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE", hub.url + "/{repo_id}/resolve/{revision}/{filename}")
    monkeypatch.setattr(constants, "HF_URL_HOSTS", constants.HF_URL_HOSTS | {"127.0.0.1"})
    monkeypatch.setattr(constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "HF_HOME", str(hf_home))
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(hf_home / "hub"))
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(hf_home / "token"))
    monkeypatch.setattr(constants, "HF_STORED_TOKENS_PATH", str(hf_home / "stored_tokens"))
    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", hub.url)
    monkeypatch.setattr(datasets.config, "HUB_DATASETS_URL", hub.url + "/datasets/{repo_id}/resolve/{revision}/{path}")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(datasets.config, "HF_CACHE_HOME", str(hf_home))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", hf_home / "datasets")
    monkeypatch.setattr(datasets.config, "HF_MODULES_CACHE", hf_home / "modules")
    monkeypatch.setattr(datasets.config, "DOWNLOADED_DATASETS_PATH", hf_home / "datasets" / "downloads")
    monkeypatch.setattr(datasets.config, "EXTRACTED_DATASETS_PATH", hf_home / "datasets" / "downloads" / "extracted")
