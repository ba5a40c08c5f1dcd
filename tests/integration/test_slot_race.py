"""Processes deciding one user's single-valued attributes at the same moment leave one active value, on both engines.

Each child opens the store with the bundled embedder and the offline engine
(what a deployment runs), waits for one shared instant, then writes. In the
mixed run the rules engine's verdicts take 50 ms, as a remote model's would,
so decisions of different processes overlap. The checks read what
reconciliation itself left, before ``maintain()`` (whose repair step would
hide a race), and again after it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections import Counter

import pytest

import kenning
from kenning.lifecycle import write
from kenning.lifecycle.reconcile import fact_of
from kenning.types import now_utc

pytestmark = pytest.mark.slow

CHILD = textwrap.dedent(
    """
    import random, sys, time
    import kenning
    from kenning.lifecycle import write
    from kenning.lifecycle.rules import RulesDecider
    from kenning.types import now_utc

    url, n, mode, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    cities = ["Leeds", "York", "Bristol", "Exeter", "Bath", "Derby", "Hull", "Chester"]
    employers = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"]
    rng = random.Random(n)


    class Deliberate(RulesDecider):
        # the rules engine's verdicts, taking as long as a remote model's would: decisions overlap in time
        name = "rules"

        def decide(self, candidate, neighbours):
            time.sleep(0.05)
            return super().decide(candidate, neighbours)


    with kenning.open(url) as k:
        if mode == "mixed":
            k.ctx.decider = Deliberate()
        k.scope("warm", "up").search("load the model first")
        while time.time() < start:
            time.sleep(0.0005)
        if mode == "race":
            for trial in range(int(sys.argv[5])):  # a fresh user per trial, every process at the same instant
                while time.time() < start + 1.5 * trial:
                    time.sleep(0.0005)
                k.scope("race", f"trial{trial}").add(f"I live in {cities[n]}.", wait=True)
        else:
            for i in range(int(sys.argv[5])):  # rounds: every process writes to one user at the same instant
                while time.time() < start + 1.0 * i:
                    time.sleep(0.0005)
                s = k.scope("mixed", f"user{i}")
                said = rng.choice([f"I live in {rng.choice(cities)}.", f"I work at {rng.choice(employers)}."])
                r = rng.random()
                if r < 0.6:
                    s.add(said, wait=True)
                elif r < 0.8:
                    s.add(said, wait=False)
                else:
                    write.reconcile_pending(s.ctx, s.scope, now_utc())
    """
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    u = f"sqlite:///{tmp_path / 'race.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    kenning.open(u).close()  # migrated once, before the processes race
    return u


def run(url: str, procs: int, mode: str, *extra: str) -> None:
    start = time.time() + 15.0  # every child has imported and loaded the models by then
    children = [subprocess.Popen([sys.executable, "-c", CHILD, url, str(n), mode, str(start), *extra]) for n in range(procs)]
    assert [c.wait(timeout=300) for c in children] == [0] * procs


def doubled(k: kenning.Kenning, tenant: str) -> dict[str, list[str]]:
    """Per user of ``tenant``: the single-valued attributes holding more than one active memory."""
    out = {}
    for scope in (s for s in k.scopes() if s.tenant_id == tenant):
        keys = Counter(
            f.key for m in k.scope(scope.tenant_id, scope.user_id).list(limit=None)
            if (f := fact_of(m)) is not None and f.attribute.single and not f.negated
        )
        if bad := [f"{a}/{b} x{c}" for (a, b), c in keys.items() if c > 1]:
            out[scope.user_id] = bad
    return out


def settle(url: str, tenant: str) -> tuple[dict, dict]:
    """What reconciliation left once every pending claim is decided, then what ``maintain()`` leaves."""
    with kenning.open(url) as k:
        for scope in (s for s in k.scopes() if s.tenant_id == tenant):
            write.reconcile_pending(k.ctx, scope, now_utc())
        before = doubled(k, tenant)
        k.maintain()
        return before, doubled(k, tenant)


def test_four_processes_saying_where_they_live_at_once_leave_one_home(url):
    run(url, 4, "race", "4")
    assert settle(url, "race") == ({}, {})
    with kenning.open(url) as k:
        for trial in range(4):
            assert len([m for m in k.scope("race", f"trial{trial}").list() if "lives in" in m.text]) == 1


def test_eight_processes_of_mixed_updates_leave_one_value_per_attribute(url):
    run(url, 8, "mixed", "12")
    assert settle(url, "mixed") == ({}, {})
