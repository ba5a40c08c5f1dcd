"""Latency helpers shared by the benchmarks: time a call per item, summarise in milliseconds."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


def latencies(call: Callable[[T], Any], items: Iterable[T], *, before: Callable[[T], Any] | None = None) -> np.ndarray:
    """Seconds each ``call(item)`` took; ``before(item)`` runs untimed first (e.g. to empty a cache)."""
    out = []
    gc.collect()
    for item in items:
        if before is not None:
            before(item)
        t0 = time.perf_counter()
        call(item)
        out.append(time.perf_counter() - t0)
    return np.array(out)


def summary(seconds: np.ndarray) -> dict[str, float]:
    """p50, p95 and mean in milliseconds."""
    ms = seconds * 1000.0
    return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "mean": float(ms.mean()), "n": len(ms)}
