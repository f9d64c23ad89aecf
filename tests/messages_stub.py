"""A local stand-in for the Anthropic Messages API: ``POST /v1/messages`` on 127.0.0.1 (by default), scripted
replies.

Tests point the real ``anthropic`` SDK at it (``base_url``) so retries, timeouts and error mapping run through
the SDK's own code. Each request takes the next scripted reply in order and is recorded (path, headers, JSON
body). With nothing left to play, the stub answers 500 ``"stub: no scripted reply left"``, which a test sees.

    with MessagesStub() as stub:
        stub.reply("Validation happens in validate_refresh_token [1].")
        stub.error(429, headers={"retry-after-ms": "10"})
        stub.sleep(2.0)                       # longer than the client's timeout
        stub.raw(200, b"{not json", "application/json")
        ... LLMSettings(base_url=stub.url, api_key=stub.api_key) ...
        assert len(stub.requests) == 2

Only the standard library: ``http.server`` in a daemon thread, port 0 (the OS picks a free one).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

API_KEY = "sk-ant-stub-0000000000000000000000"


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    trickle: float = 0.0     # seconds between the body's bytes, sent one at a time


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: Any                  # the decoded JSON body (or the raw text when it is not JSON)

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", []) if isinstance(self.body, dict) else []

    @property
    def last_user_text(self) -> str:
        for m in reversed(self.messages):
            if m.get("role") == "user":
                c = m.get("content")
                return c if isinstance(c, str) else "".join(b.get("text", "") for b in c)
        return ""


def message_body(text: str, *, input_tokens: int = 100, output_tokens: int = 20, model: str = "stub-model",
                 stop_reason: str = "end_turn", n: int = 1) -> dict:
    """A Messages API response carrying one text block, as the real API shapes it."""
    return {"id": f"msg_stub_{n:04d}", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}}


def error_body(status: int, message: str | None = None) -> dict:
    kind = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
            404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message or f"stub {status}"}}


class MessagesStub:
    def __init__(self, host: str = "127.0.0.1") -> None:
        """``host``: where to listen; ``0.0.0.0`` lets containers reach it (tests/test_docker_engine.py)."""
        self.script: list[Reply] = []
        self.requests: list[Request] = []
        self.api_key = API_KEY
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._served = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:   # keep test output clean
                pass

            def do_POST(self) -> None:   # http.server's naming
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                reply = stub._next(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if reply.delay and stub._stop.wait(reply.delay):
                    return
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", reply.content_type)
                    self.send_header("content-length", str(len(reply.body)))
                    self.send_header("request-id", f"req_stub_{len(stub.requests):04d}")
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    if not reply.trickle:
                        self.wfile.write(reply.body)
                    for i in range(len(reply.body) if reply.trickle else 0):
                        self.wfile.write(reply.body[i:i + 1])
                        self.wfile.flush()
                        if stub._stop.wait(reply.trickle):
                            return
                except (BrokenPipeError, ConnectionResetError):
                    pass   # the client gave up (timeout) before the reply

        self._server = ThreadingHTTPServer((host, 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, name="messages-stub", daemon=True)

    # -- script -------------------------------------------------------------------------------------------------
    def reply(self, text: str, **usage: Any) -> "MessagesStub":
        """A successful Messages API response whose text is ``text``."""
        n = len(self.script) + 1
        self.script.append(Reply(body=json.dumps(message_body(text, n=n, **usage)).encode()))
        return self

    def error(self, status: int, message: str | None = None, headers: dict[str, str] | None = None) -> "MessagesStub":
        self.script.append(Reply(status, json.dumps(error_body(status, message)).encode(), headers=headers or {}))
        return self

    def sleep(self, seconds: float, text: str = "too late") -> "MessagesStub":
        """Answer only after ``seconds`` (to outlast the client's timeout)."""
        self.script.append(Reply(body=json.dumps(message_body(text)).encode(), delay=seconds))
        return self

    def trickle(self, seconds: float, text: str = "too slow") -> "MessagesStub":
        """Headers at once, then the body one byte every ``seconds``: each read is quick, the whole is not."""
        self.script.append(Reply(body=json.dumps(message_body(text)).encode(), trickle=seconds))
        return self

    def raw(self, status: int, body: bytes, content_type: str = "application/json") -> "MessagesStub":
        self.script.append(Reply(status, body, content_type))
        return self

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if request.path.rstrip("/") != "/v1/messages":
                return Reply(404, json.dumps(error_body(404, f"stub: no route {request.path}")).encode())
            if self._served >= len(self.script):
                return Reply(500, json.dumps(error_body(500, "stub: no scripted reply left")).encode(),
                             headers={"x-should-retry": "false"})
            reply = self.script[self._served]
            self._served += 1
            return reply

    # -- lifecycle ----------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "MessagesStub":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "MessagesStub":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
