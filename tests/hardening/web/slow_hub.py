"""A stand-in for the Hub's ``whoami`` that answers at once or hangs: for the guard's tests and benchmarks."""

from __future__ import annotations

import http.server
import json
import threading


class SlowHub:
    """``/api/whoami-v2``: a token containing ``slow`` waits until ``close`` (a Hub that hangs); one containing
    ``user`` belongs to the user named after it (``hf_user_alice...`` -> ``alice``); any other is refused (401)."""

    def __init__(self) -> None:
        self.asked = 0
        self.release = threading.Event()
        hub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
                hub.asked += 1
                token = self.headers.get("authorization", "").removeprefix("Bearer ")
                if "slow" in token:
                    hub.release.wait(600)
                if "_user_" in token:
                    name = token.split("_user_", 1)[1].split("_", 1)[0]
                    status, body = 200, {"type": "user", "name": name}
                else:
                    status, body = 401, {"error": "Invalid user token"}
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the app stopped waiting (its deadline): nobody reads the answer
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, name="slow-hub", daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
