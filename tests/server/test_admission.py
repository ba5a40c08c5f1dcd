"""A saturated server: work beyond the bound gets 503 + Retry-After at once, and the probes never wait for work.

Work is really stuck here: the test holds SQLite's write lock from its own
connection, so every write request blocks inside the store until released.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import anyio
import anyio.to_thread
import httpx

from kenning.server import create_app

from .live import serve


@contextmanager
def write_lock(system):
    """Hold the database's write lock (as another process would) until the block ends."""
    con = sqlite3.connect(system.ctx.store.path, isolation_level=None, timeout=30)
    con.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        con.execute("ROLLBACK")
        con.close()


def wait_for(cond, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def settings_of(system, **limits):
    return system.ctx.settings.model_copy(update=limits)


def test_work_beyond_the_bound_gets_503_with_retry_after_and_the_probes_answer(system):
    key = system.create_api_key("acme", "t")[1]
    app = create_app(settings_of(system, server_concurrency=2, server_queue=0, server_retry_after_s=3), system=system, mcp=False)
    gate = app.state.admission
    with serve(app) as url, httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as c:
        with ThreadPoolExecutor(2) as pool:
            with write_lock(system):
                stuck = [pool.submit(c.post, "/v1/users/alice/memories", json={"text": f"Alice note {i}"}) for i in range(2)]
                wait_for(lambda: gate.running == 2)

                t0 = time.perf_counter()
                r = c.post("/v1/users/alice/memories", json={"text": "one too many"})
                assert r.status_code == 503 and r.headers["retry-after"] == "3"
                assert r.json()["error"]["code"] == "overloaded" and "capacity" in r.json()["error"]["message"]
                assert c.post("/v1/users/alice/search", json={"query": "note"}).status_code == 503  # reads too: the slots are full
                for probe, body in (("/healthz", {"status": "ok"}), ("/readyz", {"status": "ready"})):
                    p = c.get(probe)
                    assert p.status_code == 200 and p.json() == body
                assert c.get("/metrics").status_code == 200
                assert time.perf_counter() - t0 < 5  # nothing above waited for the stuck writes
                assert not any(f.done() for f in stuck)
            assert [f.result().status_code for f in stuck] == [201, 201]  # the stuck work finished, nothing lost
        # a slot is released after the response has been sent, so the client can see the response first
        wait_for(lambda: gate.running == 0)
        assert gate.rejected == 2
        assert c.post("/v1/users/alice/memories", json={"text": "room again"}).status_code == 201
    assert system.scope("acme", "alice").count() == 3


def test_requests_wait_in_a_bounded_queue_and_give_up_after_the_timeout(system):
    key = system.create_api_key("acme", "t")[1]
    app = create_app(settings_of(system, server_concurrency=1, server_queue=1, server_queue_timeout_s=1.0), system=system, mcp=False)
    gate = app.state.admission
    with serve(app) as url, httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as c:
        with ThreadPoolExecutor(2) as pool, write_lock(system):
            first = pool.submit(c.post, "/v1/users/alice/memories", json={"text": "Alice holds the slot"})
            wait_for(lambda: gate.running == 1)
            t0 = time.perf_counter()
            queued = pool.submit(c.post, "/v1/users/alice/memories", json={"text": "Alice waits"})
            wait_for(lambda: gate.waiting == 1)
            full = c.post("/v1/users/alice/memories", json={"text": "no room in the queue"})
            assert full.status_code == 503 and "1 waiting" in full.json()["error"]["message"]
            timed_out = queued.result(timeout=30)
            assert timed_out.status_code == 503 and "within 1 s" in timed_out.json()["error"]["message"]
            assert 0.9 < time.perf_counter() - t0 < 10
        assert first.result(timeout=30).status_code == 201
    assert [m.text for m in system.scope("acme", "alice").list()] == ["Alice holds the slot"]  # refused means not written


def test_probes_do_not_need_a_thread_of_the_busy_pool(system):
    """Every worker thread of the pool is taken; /healthz and /readyz still answer at once."""
    app = create_app(system=system, mcp=False)

    async def main() -> None:
        release = threading.Event()
        pool = anyio.to_thread.current_default_thread_limiter()
        pool.total_tokens = 1
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.to_thread.run_sync, release.wait)  # the pool's only thread, stuck
            try:
                await anyio.sleep(0.05)
                assert pool.borrowed_tokens == 1
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                    with anyio.fail_after(5):
                        assert (await client.get("/healthz")).json() == {"status": "ok"}
                        assert (await client.get("/readyz")).json() == {"status": "ready"}
            finally:
                release.set()

    asyncio.run(main())
