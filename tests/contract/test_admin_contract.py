"""The administrative capabilities (API keys, secrets, leases): every engine declaring them behaves the same."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kenning.errors import Conflict
from kenning.types import ApiKey, new_id

from .factory import T0, later


def key(tenant: str, key_hash: str, *, name: str = "", minutes: int = 0) -> ApiKey:
    return ApiKey(new_id("key"), tenant, name, key_hash, T0 + timedelta(minutes=minutes))


def test_put_then_find_round_trips_every_field(admin_engine):
    k = key("acme", "a" * 64, name="ci")
    admin_engine.put_api_key(k)
    assert admin_engine.find_api_key("a" * 64) == k
    assert admin_engine.find_api_key("b" * 64) is None


def test_duplicate_hash_or_id_conflicts_and_changes_nothing(admin_engine):
    k = key("acme", "a" * 64)
    admin_engine.put_api_key(k)
    with pytest.raises(Conflict):
        admin_engine.put_api_key(key("globex", "a" * 64))
    with pytest.raises(Conflict):
        admin_engine.put_api_key(ApiKey(k.id, "globex", "", "c" * 64, T0))
    assert admin_engine.find_api_key("a" * 64).tenant_id == "acme"
    assert admin_engine.list_api_keys("globex") == []


def test_list_is_per_tenant_oldest_first(admin_engine):
    k1, k2 = key("acme", "1" * 64, minutes=1), key("acme", "2" * 64, minutes=2)
    other = key("globex", "3" * 64)
    for k in (k2, other, k1):
        admin_engine.put_api_key(k)
    assert [k.id for k in admin_engine.list_api_keys("acme")] == [k1.id, k2.id]
    assert [k.id for k in admin_engine.list_api_keys("globex")] == [other.id]
    assert admin_engine.list_api_keys("initech") == []


def test_revoke_is_scoped_to_the_tenant_and_happens_once(admin_engine):
    k = key("acme", "a" * 64)
    admin_engine.put_api_key(k)
    at = T0 + timedelta(hours=1)
    assert admin_engine.revoke_api_key("globex", k.id, at) is False  # another tenant cannot revoke it
    assert admin_engine.find_api_key("a" * 64).revoked_at is None
    assert admin_engine.revoke_api_key("acme", k.id, at) is True
    assert admin_engine.find_api_key("a" * 64).revoked_at == at
    assert admin_engine.revoke_api_key("acme", k.id, at + timedelta(hours=1)) is False
    assert admin_engine.find_api_key("a" * 64).revoked_at == at
    assert admin_engine.revoke_api_key("acme", "key_missing", at) is False


def test_secret_is_created_once_and_kept(admin_engine):
    assert admin_engine.secret("page", "ab" * 32) == "ab" * 32
    assert admin_engine.secret("page", "cd" * 32) == "ab" * 32
    assert admin_engine.secret("other", "cd" * 32) == "cd" * 32


def test_leases_exclude_other_holders_until_expiry(admin_engine):
    assert admin_engine.acquire_lease("scope:acme/alice", "w1", T0, 60)
    assert not admin_engine.acquire_lease("scope:acme/alice", "w2", later(0), 60)
    assert admin_engine.acquire_lease("scope:acme/alice", "w1", later(0), 60)  # renewal
    assert admin_engine.acquire_lease("scope:acme/alice", "w2", later(2), 60)  # expired
    admin_engine.release_lease("scope:acme/alice", "w1")  # not the holder: no effect
    assert not admin_engine.acquire_lease("scope:acme/alice", "w1", later(2), 60)
    admin_engine.release_lease("scope:acme/alice", "w2")
    assert admin_engine.acquire_lease("scope:acme/alice", "w1", later(2), 60)
