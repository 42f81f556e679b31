"""A tiny OpenAI-compatible chat server on the loopback interface, for tests and recording.

It speaks just enough of ``POST /v1/chat/completions`` for ``langchain_openai.ChatOpenAI``:
answers come from a queue (:meth:`OpenAIStub.enqueue`) or a ``responder(body)`` callable, each a
:class:`StubReply` that can also be an HTTP error (429/500 with ``retry-after-ms``), a slow answer
(to provoke client timeouts), a refusal or an answer cut off at the length limit
(``finish_reason="length"``). When the request carries ``tools``, the reply content becomes the
arguments of one tool call — unless ``ignore_tools`` plays a server that ignores ``tool_choice``
(plain content, no tool call). Every request body is kept in :attr:`OpenAIStub.requests`.

It is not a model: it only serves what it is told to. ``belief-graph llm record-demo`` uses it to
record the shipped demo replay file from hand-written answers (see docs/llm.md).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = ["OpenAIStub", "StubReply", "estimate_tokens"]

_LOOPBACK = frozenset({"127.0.0.1", "localhost"})


@dataclass(frozen=True)
class StubReply:
    """One answer of the stub. ``usage`` is (prompt, completion) tokens; default an estimate."""

    content: str | None = None
    refusal: str | None = None
    status: int = 200
    delay: float = 0.0
    error: str = "stub error"
    usage: tuple[int, int] | None = None
    retry_after_ms: int = 1
    finish_reason: str | None = None
    """Default ``stop`` (``tool_calls`` with tools); ``length``: cut off at ``max_tokens``."""
    ignore_tools: bool = False
    """Answer in plain content even when a tool call is forced (like llama-server)."""


def estimate_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer: one token per 4 characters (at least 1)."""
    return max(1, (len(text) + 3) // 4)


class OpenAIStub:
    """Loopback OpenAI-compatible server in a daemon thread. Use as a context manager."""

    def __init__(self, responder: Callable[[dict[str, Any]], StubReply] | None = None, host: str = "127.0.0.1") -> None:
        if host not in _LOOPBACK:
            raise ValueError(f"the stub only listens on the loopback interface, not {host!r}")
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._queue: deque[StubReply] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((host, 0), self._handler())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The ``base_url`` to give the client (ends in ``/v1``)."""
        host, port = self._server.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{host}:{port}/v1"

    def enqueue(self, *replies: StubReply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def start(self) -> OpenAIStub:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="openai-stub")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> OpenAIStub:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _next(self, body: dict[str, Any]) -> StubReply:
        with self._lock:
            self.requests.append(body)
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(body)
        return StubReply(status=500, error="the stub has no reply queued")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub._lock:
                    stub.headers.append({k.lower(): v for k, v in self.headers.items()})
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                reply = stub._next(body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(
                        reply.status,
                        {"error": {"message": reply.error, "type": "stub_error"}},
                        {"retry-after-ms": str(reply.retry_after_ms)},
                    )
                    return
                self._send(200, _completion(body, reply))

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def _completion(body: dict[str, Any], reply: StubReply) -> dict[str, Any]:
    prompt = "".join(str(m.get("content") or "") for m in body.get("messages", []))
    content = reply.content
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": reply.refusal}
    tools = body.get("tools") or []
    if tools and content is not None and reply.refusal is None and not reply.ignore_tools:
        choice = body.get("tool_choice")
        name = (
            choice["function"]["name"]
            if isinstance(choice, dict) and "function" in choice
            else tools[0]["function"]["name"]
        )
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_stub_1", "type": "function", "function": {"name": name, "arguments": content}}],
        }
    if reply.usage is not None:
        tin, tout = reply.usage
    else:
        tin, tout = estimate_tokens(prompt), estimate_tokens(content or reply.refusal or "")
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "stub"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": reply.finish_reason or ("tool_calls" if "tool_calls" in message else "stop"),
            }
        ],
        "usage": {"prompt_tokens": tin, "completion_tokens": tout, "total_tokens": tin + tout},
    }
