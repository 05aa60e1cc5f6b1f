"""A minimal OpenAI-compatible chat-completions server for tests, standard library only.

It listens on a free port of 127.0.0.1 in a daemon thread and serves `POST /v1/chat/completions`:

- every request is recorded in `requests` (the parsed JSON body and the Authorization header);
- each reply is the next text queued in `replies`, either as one JSON `chat.completion` or, when
  the request says `"stream": true`, as Server-Sent Events of `chat.completion.chunk` objects
  (plus a final usage chunk when `stream_options.include_usage` is true) ending in `data: [DONE]`;
- with `api_key` set, a different bearer token gets a 401 OpenAI-style error;
- a model not in `models` (when `models` is given) gets a 404 OpenAI-style error.

    with OpenAIServer() as server:
        server.replies.append("Hello")
        ...  # point a client at server.base_url
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROMPT_TOKENS = 11  # fixed, so tests can assert usage came from the server


@dataclass
class RecordedRequest:
    body: dict[str, Any]
    authorization: str | None

    @property
    def bearer(self) -> str | None:
        if self.authorization and self.authorization.startswith("Bearer "):
            return self.authorization[len("Bearer ") :]
        return None


def split_text(text: str, pieces: int = 3) -> list[str]:
    """Cut `text` into at most `pieces` non-empty parts, in order."""
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def completion_tokens(text: str) -> int:
    return len(text.split())


class OpenAIServer:
    """A scripted chat-completions server; use as a context manager or call start() and stop()."""

    def __init__(self, *, api_key: str | None = None, models: set[str] | None = None) -> None:
        self.api_key = api_key
        self.models = models
        self.replies: list[str] = []
        self.requests: list[RecordedRequest] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> OpenAIServer:
        handler = type("Handler", (_Handler,), {"server_state": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_reply(self) -> str:
        if not self.replies:
            raise AssertionError("OpenAIServer got a request but no reply is queued")
        return self.replies.pop(0)


class _Handler(BaseHTTPRequestHandler):
    server_state: OpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        state = self.server_state
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        authorization = self.headers.get("Authorization")
        state.requests.append(RecordedRequest(body, authorization))

        if self.path.rstrip("/") != "/v1/chat/completions":
            return self._error(404, f"Unknown path {self.path}", "invalid_request_error", "unknown_url")
        if state.api_key is not None and authorization != f"Bearer {state.api_key}":
            return self._error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
        model = body.get("model", "")
        if state.models is not None and model not in state.models:
            return self._error(
                404,
                f"The model `{model}` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            )

        text = state.next_reply()
        usage = {
            "prompt_tokens": PROMPT_TOKENS,
            "completion_tokens": completion_tokens(text),
            "total_tokens": PROMPT_TOKENS + completion_tokens(text),
        }
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._stream(model, text, usage if include_usage else None)
        else:
            self._json(
                200,
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": usage,
                },
            )

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, type_: str, code: str) -> None:
        self._json(status, {"error": {"message": message, "type": type_, "param": None, "code": code}})

    def _stream(self, model: str, text: str, usage: dict[str, int] | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")  # the end of the body is the end of the stream
        self.end_headers()
        self.close_connection = True

        def chunk(choices: list[dict[str, Any]], usage: dict[str, int] | None = None) -> None:
            payload = {
                "id": "chatcmpl-test",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": choices,
                "usage": usage,
            }
            self.wfile.write(f"data: {json.dumps(payload)}\n\n".encode())
            self.wfile.flush()

        chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
        for piece in split_text(text):
            chunk([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
        chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}])
        if usage is not None:
            chunk([], usage)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
