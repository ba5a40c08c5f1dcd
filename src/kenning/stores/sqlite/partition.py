"""One user's vectors held in memory: the unit of the SQLite engine's exact search and of its cache."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class _Partition:
    gen: int
    ids: list[str]
    statuses: np.ndarray
    expires: np.ndarray  # microseconds; int64 max when none
    matrix: np.ndarray
    index: dict[str, int] | None = None

    @property
    def nbytes(self) -> int:
        return self.matrix.nbytes + 64 * len(self.ids)

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Read-only rows of the matrix for those ``ids`` that are in the partition."""
        if self.index is None:
            self.index = {m: i for i, m in enumerate(self.ids)}
        return {m: self.matrix[self.index[m]] for m in ids if m in self.index}
