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
    return wall_and_cpu(call, items, before=before)[0]


def wall_and_cpu(
    call: Callable[[T], Any], items: Iterable[T], *, before: Callable[[T], Any] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Wall-clock and this thread's CPU seconds of each ``call(item)``.

    For in-process work (SQLite, numpy, the ONNX model on one thread) the CPU
    time is what the call costs on an idle core; wall time also counts waiting
    for a core, which dominates on a loaded machine.
    """
    wall, cpu = [], []
    gc.collect()
    for item in items:
        if before is not None:
            before(item)
        c0, t0 = time.thread_time(), time.perf_counter()
        call(item)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return np.array(wall), np.array(cpu)


def summary(seconds: np.ndarray) -> dict[str, float]:
    """p50, p95 and mean in milliseconds."""
    ms = seconds * 1000.0
    return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "mean": float(ms.mean()), "n": len(ms)}
