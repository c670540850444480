"""A scripted HTTP server on 127.0.0.1 for testing provider clients without the internet.

It runs `http.server` in a daemon thread, so the code under test talks to it over a real socket
with the real `openai` / `anthropic` clients. Each request takes the next scripted response from a
queue (or, when the queue is empty, asks a `responder` function); every request is recorded with
its arrival time so tests can check retries and Retry-After waits after the fact.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


# ------------------------------------------------------------------------------- responses
@dataclass
class Reply:
    """A well-formed completion whose message text is `text`. Token counts default to a rough
    estimate from the request size, so usage is never zero."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int = 0
    delay: float = 0.0  # seconds to wait before answering (a slow model)


@dataclass
class Status:
    """An HTTP error, e.g. 429 with Retry-After or 500."""

    code: int
    retry_after: str | None = None
    message: str = "scripted error"
    delay: float = 0.0


@dataclass
class Raw:
    """Bytes sent as the body verbatim: malformed or truncated JSON."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    delay: float = 0.0


@dataclass
class Drop:
    """Close the connection without answering."""

    delay: float = 0.0


Response = Reply | Status | Raw | Drop
Responder = Callable[["Request"], Response]


@dataclass
class Request:
    """One request as the server received it. `at` is time.monotonic() on arrival."""

    at: float
    method: str
    path: str
    headers: dict[str, str]
    body: Any = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages", []))

    def last_user_text(self) -> str:
        """The text of the last user message (string content or text blocks)."""
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return content_text(m.get("content"))
        return ""


def content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if isinstance(b, dict))


# ------------------------------------------------------------------------------- server
@dataclass
class FakeServer:
    """Base of the provider fakes: subclasses turn a `Reply` into their API's JSON."""

    responder: Responder | None = None
    requests: list[Request] = field(default_factory=list)
    model_ids: tuple[str, ...] = ("fake-model",)

    def __post_init__(self) -> None:
        self._script: queue.Queue[Response] = queue.Queue()
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    # -- provider specifics (overridden) --------------------------------------------------------
    completion_path = "/v1/chat/completions"

    def completion_json(self, request: Request, reply: Reply) -> dict[str, Any]:
        raise NotImplementedError

    def error_json(self, status: Status) -> dict[str, Any]:
        return {"error": {"message": status.message, "type": "scripted", "code": status.code}}

    def models_json(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": m, "object": "model", "created": 0,
                                            "owned_by": "fake"} for m in self.model_ids]}

    # -- scripting --------------------------------------------------------------------------------
    def script(self, *responses: Response) -> FakeServer:
        for r in responses:
            self._script.put(r)
        return self

    @property
    def completion_requests(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith(self.completion_path)]

    def _next(self, request: Request) -> Response:
        try:
            return self._script.get_nowait()
        except queue.Empty:
            if self.responder is None:
                return Status(500, message="no scripted response left")
            return self.responder(request)

    # -- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> FakeServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        assert self._httpd is not None, "start() the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def estimate_tokens(obj: Any) -> int:
    return max(1, len(json.dumps(obj)) // 4)


def _handler(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        wbufsize = 1 << 16  # one write per response (headers and body), flushed by http.server
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

        def _record(self, method: str) -> Request:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            request = Request(time.monotonic(), method, self.path,
                              {k.lower(): v for k, v in self.headers.items()}, body)
            with server._lock:
                server.requests.append(request)
            return request

        def do_GET(self) -> None:  # noqa: N802 (http.server naming)
            self._record("GET")
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, json.dumps(server.models_json()).encode())
            else:
                self._send(404, b'{"error": {"message": "not found"}}')

        def do_POST(self) -> None:  # noqa: N802
            request = self._record("POST")
            if not self.path.endswith(server.completion_path):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            response = server._next(request)
            time.sleep(getattr(response, "delay", 0.0))
            if isinstance(response, Drop):
                self.close_connection = True
                self.connection.shutdown(2)  # socket.SHUT_RDWR: the client sees a reset
                return
            if isinstance(response, Status):
                headers = {"retry-after": response.retry_after} if response.retry_after else {}
                self._send(response.code, json.dumps(server.error_json(response)).encode(),
                           headers)
            elif isinstance(response, Raw):
                self._send(response.status, response.body, {}, response.content_type)
            else:
                body = server.completion_json(request, response)
                self._send(200, json.dumps(body).encode())

        def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None,
                  content_type: str = "application/json") -> None:
            self.send_response(code)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

    return Handler
