"""The record and scope validate what they hold; bad values raise ValidationError."""

from __future__ import annotations

from datetime import datetime

import pytest

from kenning.errors import ValidationError
from kenning.types import Kind, Memory, Scope, Source, Status

from ..conftest import T0


def make(**kw):
    fields = dict(id="mem_1", tenant_id="t", user_id="u", kind="fact", text="x", embedding=None, source="user_said",
                  source_refs=(), created_at=T0, last_used_at=T0, importance=0.5, confidence=0.5)
    fields.update(kw)
    return Memory(**fields)


def test_memory_coerces_enums_and_keeps_utc():
    m = make(kind="episode", source="tool_result", status="provisional")
    assert m.kind is Kind.EPISODE and m.source is Source.TOOL_RESULT and m.status is Status.PROVISIONAL
    assert m.created_at.utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "rumour"},
        {"source": "gossip"},
        {"sensitivity": "secret"},
        {"status": "archived"},
        {"importance": 1.5},
        {"confidence": -0.1},
        {"importance": "high"},
        {"created_at": datetime(2026, 1, 1)},
        {"expires_at": datetime(2026, 1, 1)},
        {"created_at": "2026-01-01"},
    ],
)
def test_memory_rejects_bad_values(bad):
    with pytest.raises(ValidationError):
        make(**bad)


@pytest.mark.parametrize("tenant,user", [("", "u"), ("t", ""), ("  ", "u"), ("t" * 201, "u"), (None, "u")])
def test_scope_requires_tenant_and_user(tenant, user):
    with pytest.raises(ValidationError):
        Scope(tenant, user)


def test_records_are_immutable():
    m = make()
    with pytest.raises(AttributeError):
        m.text = "changed"  # type: ignore[misc]
    assert m.evolve(text="y").text == "y" and m.text == "x"
