"""A scripted OpenAI-compatible chat server on 127.0.0.1 for tests and the token benchmark.

Answers come from ``Script.answers`` in order: ``("content", text)`` (a chat
completion with that content and a ``usage`` block), ``("raw", body)``,
``("status", code)`` or ``("slow", seconds)`` (sleeps, then answers ADD-ish
JSON the client has stopped waiting for). With the script empty it answers
``Script.default`` (HTTP 503 unless set). Every request body and its headers are kept.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def rough_tokens(text: str) -> int:
    """About four characters a token, the usual rule of thumb for English with GPT-style tokenizers."""
    return max(1, (len(text) + 3) // 4)


class Script:
    """What the server answers, in order, and what it was sent."""

    def __init__(self, count: Callable[[str], int] = rough_tokens) -> None:
        self.answers: list[tuple[str, Any]] = []
        self.default: tuple[str, Any] = ("status", 503)
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.count = count
        self.lock = threading.Lock()

    def next(self, body: dict) -> tuple[str, Any]:
        with self.lock:
            self.requests.append(body)
            kind, value = self.answers.pop(0) if self.answers else self.default
        if callable(value):
            value = value(body)
        return kind, value

    def usage(self, body: dict, content: str) -> dict[str, int]:
        prompt = sum(self.count(m.get("content", "")) + 4 for m in body.get("messages", []))
        completion = self.count(content)
        return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


@contextmanager
def serve(script: Script) -> Iterator[str]:
    """Run the server for ``script``; yields its base URL (``http://127.0.0.1:PORT/v1``)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep pytest output clean
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            script.headers.append(dict(self.headers))
            kind, value = script.next(body)
            if kind == "slow":
                time.sleep(float(value))
                kind, value = "content", '{"claims": []}'
            if kind == "status":
                self.send_response(int(value))
                self.end_headers()
                return
            if kind == "raw":
                payload = value
            else:
                message = {"role": "assistant", "content": value}
                payload = json.dumps({"choices": [{"message": message}], "usage": script.usage(body, value)})
            data = payload.encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
