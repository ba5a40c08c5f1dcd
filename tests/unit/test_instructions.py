"""Standing instructions about answers: which aspect each sets, and which earlier one a new one replaces."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kenning.embedders import HashEmbedder
from kenning.lifecycle.instructions import REPLACED, aspects, changes_answers, replaced_instruction
from kenning.lifecycle.matching import Neighbour
from kenning.types import Kind, Memory, Op, Source, Status, new_id

EMB = HashEmbedder()
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def mem(text, *, kind=Kind.PROCEDURE, source=Source.USER_SAID, at=T0, refs=()):
    return Memory(id=new_id("mem"), tenant_id="acme", user_id="alice", kind=kind, text=text, embedding=EMB.embed([text])[0],
                  source=source, source_refs=refs, created_at=at, last_used_at=at, importance=0.8, confidence=0.9,
                  status=Status.ACTIVE)


def test_aspects_name_the_values_an_instruction_sets():
    assert aspects("Standing instruction: always answer in english.") == {"language": frozenset({"english"})}
    assert aspects("always give the user summaries in bullet points") == {"format": frozenset({"bullet-points"})}
    assert aspects("keep answers short, in Korean") == {"length": frozenset({"short"}), "language": frozenset({"korean"})}
    assert aspects("always book the aisle seat") == {}


@pytest.mark.parametrize(
    "old, new",
    [
        ("Standing instruction: always answer in english.", "Standing instruction: from now on answer the user in korean."),
        ("Standing instruction: always give the user summaries in bullet points.", "Standing instruction: go back to short paragraphs."),
        ("Standing instruction: always use miles.", "Standing instruction: always use km from now on."),
    ],
)
def test_a_new_value_of_the_same_aspect_replaces_the_earlier_instruction(old, new):
    o, c = mem(old), mem(new, at=T0 + timedelta(days=9))
    decision = replaced_instruction(c, [Neighbour(o, 0.5)])
    assert decision is not None and (decision.op, decision.target_id, decision.reason) == (Op.UPDATE, o.id, REPLACED)


@pytest.mark.parametrize(
    "old, new",
    [
        ("Standing instruction: always answer in english.", "Standing instruction: always keep answers short."),  # another aspect
        ("Standing instruction: always answer in english.", "Standing instruction: answer in english, and briefly."),  # the same value
        ("Standing instruction: always book the aisle seat.", "Standing instruction: always answer in korean."),  # no aspect
        ("Standing instruction: always answer in english.", "Standing instruction: never reply in spanish."),  # sets no value
    ],
)
def test_another_aspect_or_the_same_value_replaces_nothing(old, new):
    o, c = mem(old), mem(new, at=T0 + timedelta(days=9))
    assert replaced_instruction(c, [Neighbour(o, 0.5)]) is None


def test_only_the_users_own_earlier_instruction_is_replaced():
    c = mem("Standing instruction: answer in korean.", at=T0 + timedelta(days=9))
    from_a_tool = mem("Standing instruction: always answer in english.", source=Source.TOOL_RESULT)
    a_fact = mem("User speaks english.", kind=Kind.FACT)
    later = mem("Standing instruction: always answer in english.", at=T0 + timedelta(days=20))
    same_turn = mem("Standing instruction: always answer in english.", at=c.created_at, refs=("turn1",))
    c_same = mem("Standing instruction: answer in korean.", at=c.created_at, refs=("turn1",))
    assert replaced_instruction(c, [Neighbour(m, 0.5) for m in (from_a_tool, a_fact, later)]) is None
    assert replaced_instruction(c_same, [Neighbour(same_turn, 0.5)]) is None


def test_a_request_to_change_how_answers_come_is_told_from_an_errand():
    assert changes_answers("can you go back to short paragraphs?")
    assert changes_answers("can we switch to english for replies")
    assert not changes_answers("can you go back to the shop for me?")
    assert not changes_answers("answer in english")  # an instruction, but no change asked for


def test_the_same_thing_said_the_other_way_round_replaces_the_earlier_instruction():
    o = mem("Standing instruction: always book the user ryanair when there's an option.")
    c = mem("Standing instruction: never again ryanair after that lisbon fiasco.", at=T0 + timedelta(days=9))
    decision = replaced_instruction(c, [Neighbour(o, 0.5)])
    assert decision is not None and decision.target_id == o.id
    other = mem("Standing instruction: always call the user on their mobile.")
    late = mem("Standing instruction: never call the user before 9am.", at=T0 + timedelta(days=9))
    assert replaced_instruction(late, [Neighbour(other, 0.5)]) is None  # a verb of every rule is nothing they share
