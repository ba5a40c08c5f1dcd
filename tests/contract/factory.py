"""Record builders for the contract suite."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np

from kenning.embedders import HashEmbedder
from kenning.types import Kind, Memory, Scope, Sensitivity, Source, Status, new_id

EMB = HashEmbedder()
T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
A = Scope("acme", "alice")
B = Scope("acme", "bob")
G = Scope("globex", "alice")


def mem(scope: Scope, text: str, *, at: datetime = T0, **kw) -> Memory:
    fields = dict(
        id=new_id("mem"),
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        kind=Kind.FACT,
        text=text,
        embedding=EMB.embed([text])[0],
        source=Source.USER_SAID,
        source_refs=(),
        created_at=at,
        last_used_at=at,
        importance=0.5,
        confidence=0.9,
    )
    fields.update(kw)
    return Memory(**fields)


def later(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def vec(text: str) -> np.ndarray:
    return EMB.embed([text], "query")[0]


__all__ = ["mem", "later", "vec", "A", "B", "G", "T0", "Kind", "Source", "Status", "Sensitivity"]
