"""The async API under an asyncio app (FastAPI) with concurrent requests: same results as the sync facade."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time

import httpx
import pytest
from fastapi import FastAPI

import kenning
from kenning.embedders import HashEmbedder

from ..conftest import T0

FACTS = [f"Alice note {i}: likes {w}" for i, w in enumerate(["tea", "trains", "jazz", "peanut-free food", "York", "cello"] * 4)]
QUERIES = ["tea", "music", "where does she live", "food allergy", "trains", "cello"]


def make_app(memory: kenning.AsyncKenning) -> FastAPI:
    app = FastAPI()

    @app.post("/{user}/remember")
    async def remember(user: str, body: dict) -> dict:
        m = await memory.scope("acme", user).remember(body["text"], now=T0)
        return {"id": m.id}

    @app.post("/{user}/search")
    async def search(user: str, body: dict) -> list[str]:
        hits = await memory.scope("acme", user).search(body["query"], k=3, now=T0, refresh=False)
        return [h.memory.text for h in hits]

    return app


def test_every_sync_method_has_an_async_twin():
    for sync_cls, async_cls in ((kenning.ScopedMemory, kenning.AsyncScopedMemory), (kenning.Kenning, kenning.AsyncKenning)):
        for name, fn in vars(sync_cls).items():
            if name.startswith("_") or not callable(fn):
                continue
            twin = getattr(async_cls, name)
            assert inspect.iscoroutinefunction(twin) or name in ("scope", "user"), name


def test_a_fastapi_app_under_concurrency_gets_the_sync_facades_results(tmp_path):
    async def scenario() -> tuple[list[list[str]], dict[str, int]]:
        memory = await kenning.open_async(f"sqlite:///{tmp_path / 'async.db'}", embedder=HashEmbedder())
        async with memory:
            transport = httpx.ASGITransport(app=make_app(memory))
            async with httpx.AsyncClient(transport=transport, base_url="http://app") as client:
                # 24 writes for two users at once, then 12 searches at once
                writes = [client.post(f"/{u}/remember", json={"text": t}) for t in FACTS for u in ("alice", "bob")]
                assert all(r.status_code == 200 for r in await asyncio.gather(*writes))
                searches = [client.post(f"/{u}/search", json={"query": q}) for q in QUERIES for u in ("alice", "bob")]
                results = [r.json() for r in await asyncio.gather(*searches)]
                counts = {u: await memory.scope("acme", u).count() for u in ("alice", "bob")}
        return results, counts

    results, counts = asyncio.run(scenario())
    assert counts == {"alice": len(FACTS), "bob": len(FACTS)}

    with kenning.open(f"sqlite:///{tmp_path / 'sync.db'}", embedder=HashEmbedder()) as sync:
        for u in ("alice", "bob"):
            for t in FACTS:
                sync.scope("acme", u).remember(t, now=T0)
        want = [[h.memory.text for h in sync.scope("acme", u).search(q, k=3, now=T0, refresh=False)] for q in QUERIES for u in ("alice", "bob")]
    # Same texts ranked the same way; ties among equal scores may fall in another order.
    assert [sorted(r) for r in results] == [sorted(w) for w in want]
    assert all(results)


class SlowEmbedder(HashEmbedder):
    def embed(self, texts, kind="document"):
        time.sleep(0.2)
        return super().embed(texts, kind)


def test_the_event_loop_keeps_running_while_calls_block(tmp_path):
    async def scenario() -> tuple[int, set[str]]:
        memory = await kenning.open_async(f"sqlite:///{tmp_path / 'slow.db'}", embedder=SlowEmbedder())
        ticks = 0
        threads: set[str] = set()

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick = asyncio.create_task(ticker())
        alice = memory.scope("acme", "alice")
        original = alice.sync.remember

        def traced(*a, **kw):
            threads.add(threading.current_thread().name)
            return original(*a, **kw)

        alice.sync.remember = traced  # type: ignore[method-assign]
        started = time.perf_counter()
        await asyncio.gather(*(alice.remember(f"fact {i}") for i in range(4)))
        elapsed = time.perf_counter() - started
        tick.cancel()
        await memory.close()
        assert elapsed < 0.75  # four 0.2 s embeddings ran side by side, not one after another
        return ticks, threads

    ticks, threads = asyncio.run(scenario())
    assert ticks >= 10 and threading.main_thread().name not in threads


def test_errors_arrive_as_the_same_exceptions(tmp_path):
    async def scenario() -> None:
        async with await kenning.open_async(f"sqlite:///{tmp_path / 'e.db'}", embedder=HashEmbedder()) as memory:
            with pytest.raises(kenning.NotFound):
                await memory.scope("acme", "alice").get("mem_nope")
            with pytest.raises(kenning.ConfigError):
                await kenning.open_async("notaurl")

    asyncio.run(scenario())
