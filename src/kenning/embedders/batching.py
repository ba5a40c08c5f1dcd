"""Micro-batching: concurrent ``embed`` calls share model calls, on a fixed number of model threads.

A server thread that needs a vector puts its texts on one queue and waits.
``workers`` batcher threads (by default one per core but one, which is left
to the Python side of request handling) each take the oldest
waiting request, gather whatever else is waiting (for up to ``window_s``, or
until ``max_batch`` texts), embed the distinct texts in one call per purpose,
and hand each caller its rows. Under load, requests pile up while the model
runs, so batches form without any wait; the window only helps when callers
arrive just apart. A caller sees exactly what the inner embedder would have
returned for its texts (rows do not depend on their batch companions), and
an error of the shared call is raised in every caller of that batch.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np

from kenning.embedders.base import Embedder, Purpose

_NUMBERS = itertools.count(1)


@dataclass
class _Request:
    texts: Sequence[str]
    purpose: Purpose
    future: Future = field(default_factory=Future)


class BatchingEmbedder:
    """Wraps an embedder so concurrent callers' texts are embedded together, on ``workers`` threads (default cores - 1, at least 1).

    Thread-safe; the batcher threads start on first use and stop on ``close``.
    """

    def __init__(
        self, inner: Embedder, *, window_s: float = 0.0, max_batch: int = 16, workers: int | None = None
    ) -> None:
        if window_s < 0 or max_batch < 1:
            raise ValueError("window_s must be >= 0 and max_batch >= 1")
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.window_s = window_s
        self.max_batch = max_batch
        # Request handling is Python (one core at a time, the GIL): leave it a core, the model gets the rest.
        self.workers = workers or max(1, (os.cpu_count() or 1) - 1)
        self.batches = 0  # model calls made, for measuring the batch sizes reached
        self.texts = 0
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False
        self.name = f"kenning-embed-{next(_NUMBERS)}"  # its threads are named <name>-<i>

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        req = _Request(list(texts), purpose)
        with self._lock:  # queued before close() queues its stop signals, so always served
            if self._closed:
                req = None
            else:
                if not self._threads:
                    self._threads = [
                        threading.Thread(target=self._loop, name=f"{self.name}-{i}", daemon=True) for i in range(self.workers)
                    ]
                    for t in self._threads:
                        t.start()
                self._queue.put(req)
        if req is None:
            return self.inner.embed(texts, purpose)  # closed: embed on the caller's thread
        return req.future.result()

    def close(self) -> None:
        """Stop the batcher threads after the requests already queued; later calls embed on the caller's thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads, self._threads = self._threads, []
            for _ in threads:
                self._queue.put(None)
        for t in threads:
            t.join(timeout=30)

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            self._run(self._gather(first))

    def _gather(self, first: _Request) -> list[_Request]:
        """``first`` and the requests waiting behind it, up to ``max_batch`` texts and ``window_s`` of waiting."""
        batch, n = [first], len(first.texts)
        deadline = time.perf_counter() + self.window_s
        while n < self.max_batch:
            try:
                left = deadline - time.perf_counter()
                nxt = self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
            except queue.Empty:
                break
            if nxt is None:  # closing: leave the stop signal for this thread's next turn
                self._queue.put(None)
                break
            batch.append(nxt)
            n += len(nxt.texts)
        return batch

    def _run(self, batch: list[_Request]) -> None:
        for purpose in {r.purpose for r in batch}:
            group = [r for r in batch if r.purpose == purpose]
            distinct = list(dict.fromkeys(t for r in group for t in r.texts))  # same text asked twice: embedded once
            try:
                vectors = self.inner.embed(distinct, purpose)
            except BaseException as exc:  # noqa: BLE001 - every caller of the batch gets the error
                for r in group:
                    r.future.set_exception(exc)
                continue
            self.batches += 1
            self.texts += len(distinct)
            row = {t: i for i, t in enumerate(distinct)}
            for r in group:
                r.future.set_result(vectors[[row[t] for t in r.texts]])
