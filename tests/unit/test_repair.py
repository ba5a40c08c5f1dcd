"""Repair: a single-valued attribute left with two active values keeps one, audited, history intact."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning import inputs
from kenning.embedders import HashEmbedder
from kenning.lifecycle import repair
from kenning.lifecycle.reconcile import fact_of
from kenning.types import Kind, Op, Source, Status

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def k(tmp_path):
    with kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=HashEmbedder()) as system:
        yield system


def active_texts(s) -> list[str]:
    return sorted(m.text for m in s.list(limit=None))


def test_two_homes_keep_the_newest_and_the_older_joins_its_history(k):
    s = k.scope("acme", "alice")
    leeds = s.remember("User lives in Leeds", now=T0)
    york = s.remember("User lives in York", now=T0 + timedelta(days=1))
    s.remember("User works at Acme", now=T0)
    [report] = k.maintain(now=T0 + timedelta(days=2))
    assert len(report["repaired"]) == 1
    assert active_texts(s) == ["User lives in York", "User works at Acme"]
    kept = s.get(report["repaired"][0])
    assert kept.text == york.text and set(kept.supersedes) == {leeds.id, york.id}
    assert s.get(leeds.id).status is Status.RETIRED and s.get(york.id).status is Status.RETIRED
    history = s.history(kept.id)
    assert {m.id for m in history.versions} == {leeds.id, york.id, kept.id}
    [line] = [a for a in history.audit if a.reason == repair.REASON]
    assert line.op is Op.UPDATE and set(line.memory_ids) == {kept.id, leeds.id, york.id}
    assert "Leeds" not in line.reason and "York" not in line.reason  # ids only
    s.delete(kept.id)  # deleting what is kept takes the values it replaced with it
    assert {s.get(i).status for i in (leeds.id, york.id, kept.id)} == {Status.DELETED}


@pytest.mark.parametrize(
    "texts",
    [
        ["User lives in Leeds", "User's sister lives in York", "User works at Acme", "User likes jazz", "User likes opera"],
        ["User's friend Marek lives in Tilburg", "User's friend Ana lives in Rome"],  # two people, not one attribute twice
        ["User lives in leeds", "User's manager keiko is moving to tokyo in march"],  # a person named in lowercase
    ],
)
def test_other_subjects_attributes_and_multi_valued_ones_are_left_alone(k, texts):
    s = k.scope("acme", "alice")
    for i, t in enumerate(texts):
        s.remember(t, now=T0 + timedelta(minutes=i))
    [report] = k.maintain(now=T0 + timedelta(days=1))
    assert report["repaired"] == [] and active_texts(s) == sorted(texts)


def test_a_tool_result_never_displaces_what_the_user_said(k):
    s = k.scope("acme", "alice")
    s.remember("User lives in Leeds", now=T0)
    s.remember("User lives in York", source="tool_result", now=T0 + timedelta(days=1))
    k.maintain(now=T0 + timedelta(days=2))
    assert active_texts(s) == ["User lives in Leeds"]


def test_duplicates_is_pure_and_groups_by_subject_and_attribute(k):
    s = k.scope("acme", "alice")
    mems = [s.remember(t, now=T0 + timedelta(days=i)) for i, t in enumerate(
        ["User lives in Leeds", "User moved to Exeter", "User no longer lives in Bath", "User's sister lives in York"]
    )]
    facts = [(m, f) for m in mems if (f := fact_of(m)) is not None]
    [(kept, others)] = repair.duplicates(facts)
    assert kept.id == mems[1].id and [m.id for m in others] == [mems[0].id]
    assert repair.duplicates(facts) == [(kept, others)]
    assert all(m.kind is Kind.FACT and m.source is Source.USER_SAID for m in mems)


def test_a_repair_planned_against_a_moved_active_set_writes_nothing(k):
    s = k.scope("acme", "alice")
    s.remember("User lives in Leeds", now=T0)
    s.remember("User lives in York", now=T0 + timedelta(days=1))
    store = k.ctx.store
    real_list = store.list

    def list_then_someone_writes(scope, **kw):
        out = real_list(scope, **kw)
        store.insert(scope, [inputs.new_claim(k.ctx, s.scope, "User keeps bees", at=T0)])  # another process, between the read and the write
        return out

    store.list = list_then_someone_writes
    try:
        assert repair.repair_scope(k.ctx, s.scope, T0 + timedelta(days=2)) == []
    finally:
        store.list = real_list
    assert active_texts(s) == ["User keeps bees", "User lives in Leeds", "User lives in York"]
    assert len(repair.repair_scope(k.ctx, s.scope, T0 + timedelta(days=2))) == 1


def test_the_same_named_friend_with_two_homes_is_repaired(k):
    s = k.scope("acme", "alice")
    s.remember("User's friend Marek lives in Tilburg", now=T0)
    s.remember("Marek lives in Gdańsk", now=T0 + timedelta(days=1))
    [report] = k.maintain(now=T0 + timedelta(days=2))
    assert len(report["repaired"]) == 1 and active_texts(s) == ["Marek lives in Gdańsk"]
