"""The supersession model: what it may judge, that it is shipped as trained, and that the write path uses it only
with the embedder it was trained for and only below the cutoff's guard."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import kenning
from kenning.config import Settings
from kenning.lifecycle import supersede
from kenning.lifecycle.extraction import chatter
from kenning.lifecycle.matching import Neighbour
from kenning.types import Kind, Memory, Source, Status

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _memory(text: str, mid: str, *, day: int = 0, status: Status = Status.ACTIVE, **kw) -> Memory:
    base = dict(id=mid, tenant_id="t", user_id="u", kind=Kind.FACT, text=text, embedding=None, source=Source.USER_SAID,
                source_refs=(f"turn-{mid}",), created_at=T0 + timedelta(days=day), last_used_at=T0, importance=0.5, confidence=0.9,
                status=status)
    return Memory(**{**base, **kw})


NEW = _memory("User moved the dog walk to the evenings now.", "new", day=7, status=Status.PROVISIONAL)
OLD = _memory("User walks the dog every morning along the beach.", "old")


def test_shipped_model_is_trained_on_dev_sets_only_and_fits_the_features():
    model = supersede.bundled()
    assert model is not None
    assert not {"val", "test", "dev6"} & set(model.meta["trained_on"])
    [(_, x)] = supersede.pairs(NEW, [Neighbour(OLD, 0.7)])
    assert len(x) == len(model.weights)


def test_only_the_users_own_earlier_facts_about_the_same_subject_are_judged():
    assert [n.memory.id for n in supersede.eligible(NEW, [Neighbour(OLD, 0.7)])] == ["old"]
    others = [
        _memory("User's sister walks her dog every morning.", "sister"),  # someone else's
        _memory("User walks the dog every morning.", "same-turn", source_refs=NEW.source_refs),  # said with it
        _memory("User walks the dog every morning.", "later", day=9),  # said after it
        _memory("User walks the dog every morning.", "tool", source=Source.TOOL_RESULT),  # not the user's word
        _memory("Always remind the user to walk the dog.", "rule", kind=Kind.PROCEDURE),
        _memory("User walks the dog every morning.", "far"),
    ]
    near = [Neighbour(m, 0.9 if m.id != "far" else supersede.MIN_COSINE - 0.01) for m in others]
    assert supersede.eligible(NEW, near) == []
    mum_then = _memory("User's mum lives in Leeds.", "mum")
    mum_now = _memory("User's mum got cancelled on, her friend bailed.", "mum-now", day=2, status=Status.PROVISIONAL)
    assert supersede.eligible(mum_now, [Neighbour(mum_then, 0.8)]) == [], "news of someone else's day ends nothing of theirs"
    for meta in ({"hedge": True}, {"request": True}, {chatter.MARK: 0.7}, {"pointer": True}):
        assert supersede.eligible(_memory(NEW.text, "new", day=7, status=Status.PROVISIONAL, metadata=meta), [Neighbour(OLD, 0.7)]) == []


def test_two_attributes_the_slot_table_tells_apart_are_never_paired():
    drink = _memory("User doesn't drink.", "drink")
    smoke = _memory("User doesn't smoke.", "smoke", day=7, status=Status.PROVISIONAL)
    assert supersede.eligible(smoke, [Neighbour(drink, 0.8)]) == []
    job = _memory("User works at Deliveroo.", "job")
    switch = _memory("User switched to uber eats because deliveroo cut their zone.", "switch", day=7, status=Status.PROVISIONAL)
    assert [n.memory.id for n in supersede.eligible(switch, [Neighbour(job, 0.6)])] == ["job"], "a preference read from a topic word keys nothing"


def test_the_cutoff_decides():
    model = supersede.bundled()
    assert supersede.replaced(model, NEW, [Neighbour(OLD, 0.7)], 0.6) is OLD
    assert supersede.replaced(model, NEW, [Neighbour(OLD, 0.7)], 1.0) is None
    unrelated = _memory("User's flat is in leith now.", "new", day=7, status=Status.PROVISIONAL)
    cat = _memory("User has a cat called Miso.", "old")
    assert supersede.replaced(model, unrelated, [Neighbour(cat, 0.21)], 0.6) is None


def _after(tmp_path, embedder, **settings) -> list[str]:
    tmp_path.mkdir()
    system = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=embedder, settings=Settings.model_construct(**settings))
    try:
        mem = system.scope("t1", "noor")
        mem.add([{"role": "user", "content": "I go running every morning before work, about 5k round the park"}], now=T0, wait=True)
        mem.add([{"role": "user", "content": "now I switch to evening runs because of the new rota"}], now=T0 + timedelta(days=7), wait=True)
        return [m.text for m in mem.list()]
    finally:
        system.close()


def test_write_path_supersedes_with_the_model_and_keeps_both_without_it(tmp_path, minilm, hash_embedder):
    texts = _after(tmp_path / "a", minilm)
    assert any("evening" in t for t in texts) and not any("morning" in t for t in texts), texts
    assert any("morning" in t for t in _after(tmp_path / "b", minilm, supersede_cutoff=1.0))
    assert any("morning" in t for t in _after(tmp_path / "c", hash_embedder))  # weights for one model never judge another's cosines
