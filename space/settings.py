"""Settings of the web app itself (the service's are ``leaderboard.config.Settings``), read once at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from leaderboard.config import SettingsError

SIGN_IN_POLICIES = ("loopback", "anyone", "off")


@dataclass(frozen=True)
class SpaceSettings:
    """Where to listen, and how people sign in.

    ``space_id`` is set by Hugging Face on a Space (``SPACE_ID``): sign-in is then Hugging Face OAuth.
    Anywhere else the app offers a *local development* sign-in (any name), by default only to
    browsers on this machine (``LOCAL_SIGN_IN=loopback``); ``anyone`` opens it to the network
    (a private demo), ``off`` disables it.
    """

    space_id: str | None = None
    server_name: str = "127.0.0.1"
    server_port: int = 7860
    local_sign_in: str = "loopback"

    @property
    def on_space(self) -> bool:
        return bool(self.space_id)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SpaceSettings:
        env = os.environ if environ is None else environ
        port_text = env.get("GRADIO_SERVER_PORT", "").strip() or "7860"
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SettingsError(f"GRADIO_SERVER_PORT={port_text!r}: expected a port number from 1 to 65535")
        policy = env.get("LOCAL_SIGN_IN", "").strip().lower() or "loopback"
        if policy not in SIGN_IN_POLICIES:
            raise SettingsError(f"LOCAL_SIGN_IN={policy!r}: expected one of {', '.join(SIGN_IN_POLICIES)}")
        return cls(
            space_id=env.get("SPACE_ID", "").strip() or None,
            server_name=env.get("GRADIO_SERVER_NAME", "").strip() or "127.0.0.1",
            server_port=int(port_text),
            local_sign_in=policy,
        )
