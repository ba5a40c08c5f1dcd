"""Repair: a single-valued attribute with two active values keeps only the newest one.

Reconciliation is serialised per scope (``ActiveSetStore``), so it no longer
leaves two active homes or employers. Stores written before that, or
``remember`` (which stores a claim as given), can still hold them. The
background pass finds them with the attribute table reconciliation uses
(``reconcile.fact_of``) and writes one guarded change per attribute: a new
version of the kept memory that supersedes it and every other value, which are
retired. Retired values stay in the kept memory's history, so deleting it
still deletes them (the cascade follows ``supersedes``), and the audit line
names every id.

Which one is kept: the most trusted source first (a tool result never
overrides what the user said, as in ``reconcile.guard``), then the newest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from kenning.errors import Conflict
from kenning.lifecycle import reconcile
from kenning.lifecycle.extraction import attributes
from kenning.lifecycle.extraction.attributes import Fact
from kenning.stores.base import ActiveSetStore, audit_entry, supports
from kenning.types import Changeset, Kind, Memory, Op, Scope, Status, Transition, new_id

REASON = "repair: two active values of one single-valued attribute; the newest kept"

# Words without which the attribute table reads nothing from a claim: its verbs, nouns and
# prepositions, "fan"-like nouns and a copula ("is a nurse", "is vegan"). Only a cheap sieve in
# front of the parse; the parse decides.
_SIEVE = re.compile(
    r"(?i)\b(?:is|are|am|was|'s|"
    + "|".join(
        sorted(
            {w for a in attributes.TABLE for w in (*a.verbs, *a.nouns)} | {"fan", "supporter", "follower"},
            key=len,
            reverse=True,
        )
    )
    + r")"
)


def duplicates(facts: Sequence[tuple[Memory, Fact]]) -> list[tuple[Memory, list[Memory]]]:
    """For each subject's single-valued attribute held by more than one active memory: (kept, the others). Pure.

    Negated claims ("no longer lives in York") and facts without a value set nothing, so they never count.
    """
    groups: dict[tuple[str, str], list[Memory]] = {}
    for m, f in facts:
        if m.status is Status.ACTIVE and f.attribute.single and not f.negated and f.value:
            groups.setdefault(f.key, []).append(m)
    out = []
    for key in sorted(groups):
        held = groups[key]
        if len(held) < 2:
            continue
        kept = max(held, key=lambda m: (reconcile.trust(m), m.created_at, m.id))
        out.append((kept, sorted((m for m in held if m.id != kept.id), key=lambda m: (m.created_at, m.id))))
    return out


def plan(scope: Scope, kept: Memory, others: Sequence[Memory], now: datetime) -> Changeset:
    """One guarded change: a new version of ``kept`` superseding it and ``others``, all of which are retired."""
    new = kept.evolve(id=new_id("mem"), supersedes=(kept.id, *(m.id for m in others)), status=Status.ACTIVE)
    return Changeset(
        inserts=(new,),
        transitions=tuple(Transition(m.id, (Status.ACTIVE,), Status.RETIRED) for m in (kept, *others)),
        audit=(audit_entry(scope, now, Op.UPDATE, [new.id, kept.id, *(m.id for m in others)], kept.source.value, REASON),),
    )


def repair_scope(ctx: Any, scope: Scope, now: datetime) -> list[str]:
    """Repair every single-valued attribute of ``scope`` holding two active values; returns the ids of the kept versions.

    Each attribute is one write, planned against the active set it read: if
    anything became or stopped being active meanwhile the write is refused and
    the next pass looks again.
    """
    store = ctx.store
    seen = store.active_generation(scope) if supports(store, ActiveSetStore) else None
    active = store.list(scope, statuses=(Status.ACTIVE,), kinds=(Kind.FACT, Kind.PREFERENCE))
    sieved = [m for m in active if _SIEVE.search(m.text)]
    if len(sieved) < 2:
        return []
    parser = ctx.parser or attributes_parser()
    parser.parse([r for m in sieved for r in attributes.readings(m.text)])  # one batch through the pipeline; fact_of then reads the parser's cache
    facts = [(m, f) for m in sieved if (f := attributes.of_text(parser, m.text)) is not None]
    written = []
    for kept, others in duplicates(facts):
        change = plan(scope, kept, others, now)
        try:
            store.apply(scope, replace(change, active_gen=seen))
        except Conflict:
            break  # the active set moved: what was read is stale, the next pass re-plans
        written.append(change.inserts[0].id)
        seen = None if seen is None else seen + 1  # this write moved it, nothing else may have
    return written


def attributes_parser() -> Any:
    """The parser ``reconcile.fact_of`` reads claims with (the default spaCy one)."""
    from kenning.lifecycle.extraction.parse import default_parser

    return default_parser()


__all__ = ["duplicates", "plan", "repair_scope", "REASON"]
