"""The app as a Space runs it: Gradio's own Hugging Face OAuth routes, behind TLS, on a local provider.

- ``oidc``: ``tests/browser/oidc/provider.mjs`` (npm ``oauth2-mock-server``: discovery, JWKS,
  authorize, token, RS256-signed ID tokens) on a free port, with a sign-in page where the browser
  types who it is. ``npm ci`` installs it on first use into ``tests/browser/oidc/node_modules``
  (ignored by git; ``.ci/run`` installs it first). Without node, npm or the registry the tests
  are skipped with the reason, except under ``CI=true`` where they fail.
- ``TlsProxy``: the Hub's proxy terminates TLS in front of a Space; Gradio's OAuth sends the browser
  back to ``https://{SPACE_HOST}/login/callback`` and sets a ``Secure; SameSite=None`` cookie, so
  the app is reached here through a TLS proxy (a self-signed certificate for 127.0.0.1) too.
- ``start_space_app``: ``python app.py`` with ``SYSTEM=spaces``, ``SPACE_ID``, ``SPACE_HOST``, ``OAUTH_CLIENT_ID``,
  ``OAUTH_CLIENT_SECRET``, ``OAUTH_SCOPES`` and ``OPENID_PROVIDER_URL`` set as a Space sets them.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import os
import shutil
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import RunningApp, free_port, start_app

OIDC = Path(__file__).resolve().parent / "oidc"
START_TIMEOUT_S = 30.0


def missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def start_oidc(folder: Path) -> tuple[str, subprocess.Popen, Path]:
    """The provider's base URL, its process and its log."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        missing("node and npm are needed for the Space sign-in tests (the OpenID provider is an npm package)")
    if not (OIDC / "node_modules" / "oauth2-mock-server").is_dir():
        done = subprocess.run(
            [str(npm), "ci", "--no-audit", "--no-fund"], cwd=OIDC, capture_output=True, text=True, timeout=600
        )
        if done.returncode != 0:
            missing(f"`npm ci` in {OIDC} failed ({done.returncode}): {(done.stderr or done.stdout)[-1500:]}")
    port, log = free_port(), folder / "oidc.log"
    with open(log, "wb") as out:
        command = [str(node), "provider.mjs", str(port)]
        process = subprocess.Popen(command, cwd=OIDC, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the OpenID provider exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/.well-known/openid-configuration", timeout=2).status_code == 200:
                return url, process, log
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    pytest.fail(f"the OpenID provider did not answer within {START_TIMEOUT_S:.0f} s:\n{log.read_text()}")


def self_signed(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "proxy.crt", folder / "proxy.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


class TlsProxy:
    """``https://127.0.0.1:{port}`` → ``http://127.0.0.1:{target}``, bytes as they come (SSE included)."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.target = port, 0
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(*self_signed(folder))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="tls-proxy", daemon=True)

    def start(self, target: int) -> None:
        self.target = target
        self.thread.start()
        coroutine = asyncio.start_server(self._handle, "127.0.0.1", self.port, ssl=self.context)
        self.server = asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def stop(self) -> None:
        """Close the server and end every connection it still pipes, then the loop: a task left pending
        would be destroyed by the garbage collector later, warning inside whatever test runs then."""

        async def shut_down() -> None:
            self.server.close()
            pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut_down(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer))

    @staticmethod
    async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except (ConnectionError, ssl.SSLError, OSError):
            pass  # one side went away: close the other
        finally:
            sink.close()


@dataclass(frozen=True)
class SpaceApp:
    app: RunningApp  # the app itself, on http://127.0.0.1:{port}
    url: str  # https://{SPACE_HOST}: what a browser opens
    host: str  # SPACE_HOST
    oidc: str  # the OpenID provider


def start_space_app(folder: Path, private: Path, public: Path, oidc: str, **extra: str) -> tuple[SpaceApp, TlsProxy]:
    proxy = TlsProxy(free_port(), folder)
    host = f"127.0.0.1:{proxy.port}"
    app = start_app(
        folder,
        private,
        public,
        SYSTEM="spaces",  # what Gradio looks at to use the real OAuth routes instead of its mocked ones
        SPACE_ID="navitrace/leaderboard-test",
        SPACE_HOST=host,
        OAUTH_CLIENT_ID="navitrace-test-client",
        OAUTH_CLIENT_SECRET="navitrace-test-secret",
        OAUTH_SCOPES="openid profile",
        OPENID_PROVIDER_URL=oidc,
        **extra,
    )
    proxy.start(int(app.url.rsplit(":", 1)[1]))
    return SpaceApp(app, f"https://{host}", host, oidc), proxy


class Elsewhere:
    """A page on another site (another origin on this machine) that a victim's browser opens: ``url`` serves ``html``.

    A real server rather than a routed URL, so that Chromium treats it as any page on this machine
    (a routed public name would meet Chromium's private-network rules before it met the app's).
    """

    def __init__(self, html: str, host: str = "localhost") -> None:
        import http.server

        body = html.encode()

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.url = f"http://{host}:{self.server.server_address[1]}/attack.html"
        self.origin = self.url.rsplit("/", 1)[0]
        threading.Thread(target=self.server.serve_forever, name="elsewhere", daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
