"""Measured quantities: a new reading of a weight, dose, rent or salary replaces the one said before."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from kenning.embedders import HashEmbedder
from kenning.lifecycle import reconcile
from kenning.lifecycle.quantities import quantity_change, readings
from kenning.lifecycle.reconcile import Neighbour
from kenning.types import Kind, Memory, Op, Source, Status, new_id

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
EMB = HashEmbedder()


def mem(text, *, kind=Kind.FACT, at=T0, status=Status.ACTIVE):
    return Memory(
        id=new_id("mem"), tenant_id="acme", user_id="alice", kind=kind, text=text, embedding=EMB.embed([text])[0],
        source=Source.USER_SAID, source_refs=(), created_at=at, last_used_at=at, importance=0.6, confidence=0.9, status=status,
    )


def cand(text, kind=Kind.FACT):
    return mem(text, kind=kind, at=T0 + timedelta(days=40), status=Status.PROVISIONAL)


def near(c, *others):
    return [Neighbour(o, float(o.embedding @ c.embedding)) for o in others]


@pytest.mark.parametrize(
    "text, quantity",
    [
        ("User weighed in at 92kg this morning.", "weight"),
        ("User's scales said 84.5 this morning.", "weight"),
        ("User is down to 13 stone 4.", "weight"),
        ("User is on sertraline 50 mg.", "dose"),
        ("The consultant bumped the user up to 100.", "dose"),
        ("User's rent is £1,150 a month.", "rent"),
        ("User's salary is 450k naira per month.", "salary"),
    ],
)
def test_a_figure_is_read_as_the_quantity_its_unit_or_its_words_name(text, quantity):
    assert list(readings(text)) == [quantity]


@pytest.mark.parametrize(
    "text",
    [
        "User's goal is 75kg by christmas.",  # a target, not a reading
        "User wants to get down to 80kg.",
        "User lost 3kg since january.",  # a difference
        "User's rent went up 50 quid.",
        "User runs 5km every sunday.",  # a unit of no quantity of the table
        "User drives a 2011 hilux.",
        "User's daughter is 7.",
    ],
)
def test_targets_differences_and_other_figures_are_no_readings(text):
    assert readings(text) == {}


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("User weighed in at 92kg this morning.", "User's scales said 84.5 this morning.", "User weighed in at 84.5kg this morning."),
        ("User is on levothyroxine 75 micrograms since the thyroid op.", "The consultant bumped the user up to 100.",
         "User is on levothyroxine 100 micrograms since the thyroid op."),
        ("User takes amlodipine 5mg for blood pressure.", "User got switched onto the 10mg ones.", "User takes amlodipine 10mg for blood pressure."),
        ("User is on 50mg sertraline since november.", "User's gp bumped the user up to 100 yesterday.", "User is on 100mg sertraline since november."),
        ("User's rent is $1,450 for a 1br in columbus.", "User's first rent payment at $1,620 went out today.",
         "User's rent is $1,620 for a 1br in columbus."),
        ("User's salary na 450k naira per month.", "User's salary is now 620k monthly.", "User's salary na 620k naira per month."),
    ],
)
def test_a_new_reading_rewrites_the_memory_that_held_the_old_one(old, new, expected):
    o, c = mem(old, kind=Kind.EPISODE if "weighed" in old else Kind.FACT), cand(new)
    decision = quantity_change(c, near(c, o))
    assert decision is not None and decision.op is Op.UPDATE and decision.target_id == o.id
    assert decision.text == expected


def test_a_reading_changes_nothing_of_another_quantity_the_same_figure_or_someone_elses():
    weight = mem("User weighed in at 92kg this morning.", kind=Kind.EPISODE)
    rent = mem("User's rent is £900 a month.")
    dose = cand("User is on 50mg of sertraline now.")
    assert quantity_change(dose, near(dose, weight, rent)) is None  # no dose said before
    same = cand("User weighed 92kg again today.")
    assert quantity_change(same, near(same, weight)) is None
    sister = cand("User's sister weighs 60kg.")
    assert quantity_change(sister, near(sister, weight)) is None
    hedged = replace(cand("User might be 88kg by now."), metadata={"hedge": True})
    assert quantity_change(hedged, near(hedged, weight)) is None
    other = cand("User is now on sertraline, 50mg to start.")
    citalopram = mem("User is on citalopram 20mg for the anxiety.")
    assert quantity_change(other, near(other, citalopram)) is None  # another drug, not a new dose of the old one
    two = cand("User weighed 90kg on monday and 89kg today.")
    assert quantity_change(two, near(two, weight)) is None  # two readings: which one is now is not said


def test_decide_takes_the_reading_when_no_rule_before_it_decided():
    old = mem("User's rent is $1,450 for a 1br in columbus.")
    new = cand("User's first rent payment at $1,620 went out today.", kind=Kind.EPISODE)
    decision = reconcile.decide(new, near(new, old))
    assert decision.op is Op.UPDATE and decision.target_id == old.id and "$1,620" in decision.text


def test_a_sum_the_user_is_on_is_their_pay_unless_another_sum_is_named():
    assert set(readings("User is on £38k as a junior data analyst.")) == {"salary"}
    assert set(readings("First payslip on the new 47k just landed!!!")) == {"salary"}
    assert set(readings("User is on £900 rent.")) == {"rent"}
    assert set(readings("User is on 50mg sertraline.")) == {"dose"}
