"""The API-key and secret part of the Store contract: every engine behaves the same."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kenning.errors import Conflict
from kenning.types import ApiKey, new_id

from .factory import T0


def key(tenant: str, key_hash: str, *, name: str = "", minutes: int = 0) -> ApiKey:
    return ApiKey(new_id("key"), tenant, name, key_hash, T0 + timedelta(minutes=minutes))


def test_put_then_find_round_trips_every_field(engine):
    k = key("acme", "a" * 64, name="ci")
    engine.put_api_key(k)
    assert engine.find_api_key("a" * 64) == k
    assert engine.find_api_key("b" * 64) is None


def test_duplicate_hash_or_id_conflicts_and_changes_nothing(engine):
    k = key("acme", "a" * 64)
    engine.put_api_key(k)
    with pytest.raises(Conflict):
        engine.put_api_key(key("globex", "a" * 64))
    with pytest.raises(Conflict):
        engine.put_api_key(ApiKey(k.id, "globex", "", "c" * 64, T0))
    assert engine.find_api_key("a" * 64).tenant_id == "acme"
    assert engine.list_api_keys("globex") == []


def test_list_is_per_tenant_oldest_first(engine):
    k1, k2 = key("acme", "1" * 64, minutes=1), key("acme", "2" * 64, minutes=2)
    other = key("globex", "3" * 64)
    for k in (k2, other, k1):
        engine.put_api_key(k)
    assert [k.id for k in engine.list_api_keys("acme")] == [k1.id, k2.id]
    assert [k.id for k in engine.list_api_keys("globex")] == [other.id]
    assert engine.list_api_keys("initech") == []


def test_revoke_is_scoped_to_the_tenant_and_happens_once(engine):
    k = key("acme", "a" * 64)
    engine.put_api_key(k)
    at = T0 + timedelta(hours=1)
    assert engine.revoke_api_key("globex", k.id, at) is False  # another tenant cannot revoke it
    assert engine.find_api_key("a" * 64).revoked_at is None
    assert engine.revoke_api_key("acme", k.id, at) is True
    assert engine.find_api_key("a" * 64).revoked_at == at
    assert engine.revoke_api_key("acme", k.id, at + timedelta(hours=1)) is False
    assert engine.find_api_key("a" * 64).revoked_at == at
    assert engine.revoke_api_key("acme", "key_missing", at) is False


def test_secret_is_created_once_and_kept(engine):
    assert engine.secret("page", "ab" * 32) == "ab" * 32
    assert engine.secret("page", "cd" * 32) == "ab" * 32
    assert engine.secret("other", "cd" * 32) == "cd" * 32
