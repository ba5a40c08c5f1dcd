"""Embedders: unit vectors, determinism, batching, the cache, and the OpenAI-compatible client against a local server."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest

from kenning.embedders import CachedEmbedder, HashEmbedder
from kenning.embedders.openai import OpenAIEmbedder
from kenning.errors import EmbedderError


def test_bundled_model_gives_unit_vectors_independent_of_batching(minilm):
    texts = ["Alice lives in York", "short", "a much longer sentence about aisle seats on the train to London " * 3]
    batch = minilm.embed(texts)
    assert batch.shape == (3, 384) and batch.dtype == np.float32
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    for i, t in enumerate(texts):
        assert np.allclose(minilm.embed([t])[0], batch[i], atol=1e-4)
    assert minilm.embed([]).shape == (0, 384)


def test_bundled_model_knows_paraphrase_from_unrelated(minilm):
    a, b, c = minilm.embed(["I moved to York", "I relocated to the city of York", "My dog likes biscuits"])
    assert a @ b > 0.6 and a @ c < 0.3


def test_hash_embedder_is_deterministic_and_overlap_sensitive():
    e = HashEmbedder()
    a, b, c = e.embed(["aisle seat please", "an aisle seat", "peanut allergy"])
    assert np.array_equal(a, e.embed(["aisle seat please"])[0])
    assert a @ b > a @ c


def test_cache_returns_the_same_vectors_and_bounds_its_size():
    calls = []

    class Counting(HashEmbedder):
        def embed(self, texts, purpose="document"):
            calls.append(list(texts))
            return super().embed(texts, purpose)

    cached = CachedEmbedder(Counting(), size=2)
    first = cached.embed(["a", "b"], "query")
    again = cached.embed(["b", "a"], "query")
    assert np.array_equal(first[0], again[1]) and calls == [["a", "b"]]
    cached.embed(["c"], "query")  # evicts "b", the least recently used
    cached.embed(["a"], "query")
    assert calls[-1] == ["c"]
    cached.embed(["b"], "query")
    assert calls[-1] == ["b"]


class _Handler(BaseHTTPRequestHandler):
    mode = "good"

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if _Handler.mode == "good":
            data = [{"index": i, "embedding": [1.0, float(i), 0.0]} for i, _ in enumerate(body["input"])]
            payload = json.dumps({"data": data[::-1]}).encode()
            self.send_response(200)
        elif _Handler.mode == "wrong-dim":
            payload = json.dumps({"data": [{"index": 0, "embedding": [1.0]}]}).encode()
            self.send_response(200)
        else:
            payload = b"oops"
            self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()


def test_openai_client_orders_and_normalises(endpoint):
    _Handler.mode = "good"
    out = OpenAIEmbedder(endpoint, "m", dim=3).embed(["x", "y"])
    assert np.allclose(out[0], [1, 0, 0]) and np.allclose(out[1], np.array([1, 1, 0]) / np.sqrt(2))


@pytest.mark.parametrize("mode", ["wrong-dim", "error"])
def test_openai_client_failures_are_embedder_errors(endpoint, mode):
    _Handler.mode = mode
    with pytest.raises(EmbedderError):
        OpenAIEmbedder(endpoint, "m", dim=3).embed(["x"])
