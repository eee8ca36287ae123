"""A scripted submission whose file trickles in, a byte at a time: for the guard's tests and benchmarks."""

from __future__ import annotations

import socket
import time

PART = 'Content-Disposition: form-data; name="file"; filename="p.tsv"\r\nContent-Type: text/plain\r\n\r\n'


def trickle(host: str, port: int, token: str, wait_s: float, until: float, forwarded: str | None = None) -> bytes:
    """POST ``/script-api/submit`` announcing 200 KB with ``token``, then send a byte every ``wait_s`` (when no
    answer came meanwhile) until the server answers, closes, or ``until`` (monotonic) passes; the answer read."""
    with socket.create_connection((host, port), timeout=until - time.monotonic() + 10) as sock:
        via = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
        head = (
            f"POST /script-api/submit HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n{via}"
            "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 200000\r\n\r\n"
            f"--b\r\n{PART}"
        )
        sock.sendall(head.encode())
        sock.settimeout(wait_s)
        answer = b""
        while time.monotonic() < until and b"\r\n\r\n" not in answer:
            try:
                sock.sendall(b"x")
                answer += sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
        return answer
