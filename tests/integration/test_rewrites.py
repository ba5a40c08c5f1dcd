"""One change, several memories: a break-up rewrites every memory naming the partner as a partner, a respelt
name every memory spelling it the old way. Both engines, the real bundled embedder, through ``add()``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import kenning

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request, tmp_path, minilm):
    url = f"sqlite:///{tmp_path / 'k.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    k = kenning.open(url, embedder=minilm)
    yield k
    k.close()


def _after(k, user: str, first: str, then: str) -> tuple[list[str], list]:
    mem = k.scope("acme", user)
    mem.add([{"role": "user", "content": first}], now=T0, wait=True)
    mem.add([{"role": "user", "content": then}], now=T0 + timedelta(days=30), wait=True)
    return [m.text for m in mem.list()], mem


def test_a_break_up_rewrites_every_memory_naming_the_partner(engine):
    # (two facts about the partner that the small-talk model keeps: "he gets home at 1am" scores as small talk since
    # the session-19 refit, and this test is about the rewrite, not about what is kept)
    texts, mem = _after(engine, "u-jamie", "my boyfriend jamie and i are doing dry january together lol wish us luck. he's a line cook so our schedules are wild, "
                        "i'm usually in bed by 10 and he works every saturday and sunday",
                        "ok life update, me and jamie split up in march, it was mutual")
    named = [t for t in texts if "jamie" in t.lower()]
    assert len(named) >= 2 and all("ex-boyfriend" in t for t in named if "boyfriend" in t), texts
    for m in mem.list():  # each rewrite is a new version of the memory it replaces, its history kept
        if "line cook" in m.text:
            versions = mem.history(m.id).versions
            assert m.supersedes and len(versions) >= 2 and "ex-" not in versions[0].text, [v.text for v in versions]


def test_a_respelt_name_is_respelt_everywhere_and_another_users_memories_are_untouched(engine):
    other = engine.scope("acme", "u-other")
    other.add([{"role": "user", "content": "my niece kaitlyn is 6"}], now=T0, wait=True)
    texts, _ = _after(engine, "u-caitlin", "my daughter kaitlyn turns 10 on march 3rd and she wants a slime party",
                      "oh sorry autocorrect got me, it's caitlin with a c")
    assert not any("kaitlyn" in t.lower() for t in texts), texts
    assert sum("caitlin" in t.lower() for t in texts) >= 2, texts
    assert any("kaitlyn" in m.text for m in other.list())
