"""Headers on every answer that limit what a page may load and who may frame it.

The Content-Security-Policy lets a page run scripts only from the app's own origin (inline ones too:
Gradio's page is made of them, and its ``js=`` hooks use ``new Function``), so even a page whose
root address were made to point elsewhere could not load another site's code. It also keeps styles,
images, fonts and connections at home (``data:``/``blob:`` for what Gradio draws itself), forbids
plugins and ``<base>`` rewrites, and says who may frame the app: on a Space ``huggingface.co``, which
shows it in a frame; elsewhere nobody but the app itself.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from space.web.settings import SpaceSettings

HUB_FRAME = "https://huggingface.co"


def content_security_policy(frame_ancestors: str) -> str:
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "media-src 'self' data: blob:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            f"frame-ancestors {frame_ancestors}",
        ]
    )


def policy_for(space: SpaceSettings) -> dict[str, str]:
    """The headers every answer carries, for where the app runs."""
    ancestors = f"'self' {HUB_FRAME}" if space.on_space else "'self'"
    return {
        "Content-Security-Policy": content_security_policy(ancestors),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
    }


class SecurityHeaders:
    """ASGI middleware: adds ``headers`` to every HTTP answer that does not set them itself."""

    def __init__(self, app: ASGIApp, headers: dict[str, str]) -> None:
        self.app, self.headers = app, headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)
