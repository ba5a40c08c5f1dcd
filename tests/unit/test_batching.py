"""Micro-batching on the bundled model: the same vectors as direct calls, shared model calls, errors to every caller."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import kenning
from kenning.config import Settings
from kenning.embedders import CachedEmbedder
from kenning.embedders.batching import BatchingEmbedder
from kenning.embedders.minilm import MiniLMEmbedder
from kenning.errors import EmbedderError
from kenning.server import create_app

def threads_of(batcher: BatchingEmbedder) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(batcher.name + "-")]


QUERIES = [f"Where does user {i} like to eat on {day}?" for i, day in enumerate(["Monday", "Friday", "Sunday"] * 8)]


def test_concurrent_callers_get_their_own_vectors_from_shared_model_calls(minilm):
    batcher = BatchingEmbedder(minilm, window_s=0.005, max_batch=8, workers=1)
    start = threading.Barrier(len(QUERIES))

    def one(text: str) -> np.ndarray:
        start.wait()
        return batcher.embed([text], "query")[0]

    try:
        with ThreadPoolExecutor(len(QUERIES)) as pool:
            got = list(pool.map(one, QUERIES))
    finally:
        batcher.close()
    want = minilm.embed(QUERIES, "query")
    assert np.allclose(np.stack(got), want, atol=1e-4)
    assert batcher.texts == len(QUERIES)
    assert batcher.batches < len(QUERIES)  # callers shared model calls


def test_a_text_asked_twice_in_one_batch_is_embedded_once_and_order_is_kept(minilm):
    batcher = BatchingEmbedder(minilm)
    try:
        texts = ["Alice lives in York", "Bob rides a bike", "Alice lives in York", ""]
        got = batcher.embed(texts, "document")
    finally:
        batcher.close()
    assert np.allclose(got, minilm.embed(texts, "document"), atol=1e-4)
    assert batcher.texts == 3 and batcher.batches == 1
    assert batcher.embed([], "query").shape == (0, minilm.dim)


def test_a_failed_model_call_raises_in_every_caller_of_the_batch(tmp_path):
    broken = MiniLMEmbedder(tmp_path / "no-such-model.onnx")
    batcher = BatchingEmbedder(broken, window_s=0.005, workers=1)
    start = threading.Barrier(4)

    def one(i: int) -> str:
        start.wait()
        try:
            batcher.embed([f"query {i}"], "query")
        except EmbedderError as exc:
            return str(exc)
        return "no error"

    try:
        with ThreadPoolExecutor(4) as pool:
            errors = list(pool.map(one, range(4)))
    finally:
        batcher.close()
    assert all("model file not found" in e for e in errors)


def test_after_close_calls_embed_on_the_callers_thread(minilm):
    batcher = BatchingEmbedder(minilm)
    first = batcher.embed(["a note"], "query")
    batcher.close()
    assert np.allclose(batcher.embed(["a note"], "query"), first, atol=1e-6)
    assert batcher.batches == 1 and not threads_of(batcher)


def test_bad_limits_are_refused(minilm):
    with pytest.raises(ValueError):
        BatchingEmbedder(minilm, window_s=-1)
    with pytest.raises(ValueError):
        BatchingEmbedder(minilm, max_batch=0)


def test_settings_switch_it_on_behind_the_cache_and_repeats_never_reach_the_model(tmp_path, minilm):
    settings = Settings.model_construct(embed_batch=True)
    with kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=minilm, settings=settings) as system:
        cached = system.ctx.embedder
        assert isinstance(cached, CachedEmbedder) and isinstance(cached.inner, BatchingEmbedder)
        alice = system.scope("acme", "alice")
        alice.remember("Alice is allergic to peanuts", kind="fact")
        made = cached.inner.texts
        hits = [alice.search("book a dinner table")[0].memory.text for _ in range(3)]
        assert hits == ["Alice is allergic to peanuts"] * 3
        assert cached.inner.texts == made + 1  # the query embedded once; the repeats came from the cache
        assert threads_of(cached.inner)
    assert not threads_of(cached.inner)  # closing the system stopped them


def test_the_library_does_not_batch_unless_asked_but_a_server_does(tmp_path, minilm):
    with kenning.open(f"sqlite:///{tmp_path / 'a.db'}", embedder=minilm) as system:
        assert not isinstance(system.ctx.embedder.inner, BatchingEmbedder)
    app = create_app(Settings.model_construct(db=f"sqlite:///{tmp_path / 'b.db'}", embedder="hash"), mcp=False)
    try:
        assert isinstance(app.state.system.ctx.embedder.inner, BatchingEmbedder)
    finally:
        app.state.system.close()
