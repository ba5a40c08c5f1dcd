"""spaCy's matrix products on numpy's BLAS, when that BLAS runs on one thread.

spaCy's networks multiply through thinc, which uses blis by default. blis picks its kernels by CPU
and falls back to generic C on one it does not know (AMD Zen 4 here: about 20 GFLOP/s on one core),
where numpy's OpenBLAS does about 80. But OpenBLAS spreads a product over every core unless told
not to, which on a shared machine costs twice the CPU for little gain. So numpy's BLAS is used only
when it already runs on one thread (a one-core machine, or ``OPENBLAS_NUM_THREADS=1``, as the
benchmarks set it), and never by changing that setting for the rest of the process; otherwise blis,
as before. The products are the same up to rounding in the last bits; the extraction of every turn
of tests/extraction is byte-identical either way.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

# what OpenBLAS calls "how many threads" in the builds numpy ships and in a system library
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads64_", "openblas_get_num_threads")


def blas_threads() -> int | None:
    """How many threads numpy's OpenBLAS runs a product on, or None when that cannot be told (another BLAS,
    a platform without /proc)."""
    import numpy  # noqa: F401  (loads numpy's BLAS if it is not loaded yet)

    counts = []
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        getter = next((getattr(lib, name) for name in _GETTERS if hasattr(lib, name)), None)
        if getter is not None:
            getter.restype = ctypes.c_int
            counts.append(int(getter()))
    return max(counts) if counts else None


def _loaded_openblas() -> list[str]:
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    paths = {line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower() and line.split()[-1].startswith("/")}
    return sorted(p for p in paths if ".so" in Path(p).name)


def use_numpy_blas(nlp: Any) -> bool:
    """Route the products of ``nlp``'s networks through numpy when its BLAS runs on one thread; True if it did."""
    if blas_threads() != 1:
        return False
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)  # the same ops but ``gemm``, which is numpy's
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = ops
    return True
