"""Consolidation planning: which of a scope's records form a topic, and which summary a newer statement overrides.

Pure: ``plan`` and ``contradicted`` over records, their stored vectors and
the scope. The rules they follow are in ``consolidate``'s docstring.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from kenning.lifecycle.summaries import (
    Rules,
    Summary,
    content_tokens,
    first_word,
    key_phrases,
    name_tokens,
    near_duplicates,
    summarise,
    support_of,
)
from kenning.types import Kind, Memory, Scope, Sensitivity, Source, Status


@dataclass(frozen=True)
class Plan:
    """One consolidation decision: write ``summary`` citing ``members``, retire the active ones.

    ``replaces`` is an earlier consolidated memory on the same topic that this
    one supersedes (its sources are among ``members``, already retired).
    """

    members: tuple[Memory, ...]
    summary: Summary
    replaces: Memory | None = None
    retire: tuple[str, ...] = field(default=())


# -- planning -------------------------------------------------------------------


def eligible(m: Memory, rules: Rules) -> bool:
    """Whether ``m`` may be consolidated: active, a user's own claim of a fading kind, no lifetime, not restricted."""
    return (
        m.status is Status.ACTIVE
        and m.kind in (*rules.topic_kinds, *rules.claim_kinds)
        and m.source in (Source.USER_SAID, Source.INFERRED)
        and m.expires_at is None
        and m.sensitivity is not Sensitivity.RESTRICTED
        and m.embedding is not None
        and bool(m.text)
    )


def _coherent(members: list[Memory], threshold: float) -> list[Memory]:
    """Drop, worst first, members whose mean cosine to the remaining others is below ``threshold``. O(n^2)."""
    if len(members) < 2:
        return members
    mat = np.stack([m.embedding for m in members])
    sims = mat @ mat.T
    np.fill_diagonal(sims, 0.0)
    keep = np.ones(len(members), dtype=bool)
    sums = sims.sum(axis=1)
    n = len(members)
    while n > 1:
        means = np.where(keep, sums / (n - 1), np.inf)
        worst = int(np.argmin(means))
        if means[worst] >= threshold:
            break
        keep[worst] = False
        sums -= sims[:, worst]
        n -= 1
    return [m for m, k in zip(members, keep) if k]


def _mean_cosine(members: Sequence[Memory]) -> float:
    """Mean pairwise cosine of the members' vectors (1.0 for fewer than two)."""
    if len(members) < 2:
        return 1.0
    mat = np.stack([m.embedding for m in members])
    sims = mat @ mat.T
    n = len(members)
    return float((sims.sum() - np.trace(sims)) / (n * (n - 1)))


def says(m: Memory, phrases: Sequence[str], ignore: frozenset[str] = frozenset()) -> bool:
    """Whether ``m`` contains every content word of at least one of ``phrases``."""
    words = {t for t, _ in content_tokens(m.text, ignore)}
    return any(p and p <= words for p in ({t for t, _ in content_tokens(x, ignore)} for x in phrases))


def _decide(members: list[Memory], owner: dict[str, Memory], consolidated, rules: Rules, ignore,
            compact: tuple[Kind, ...], by_phrase: bool = True) -> Plan | None:
    """A plan for a group: a new consolidated memory, or a new version of the one that owns part of the group.

    Only members of the ``compact`` kinds are retired; the others (facts) stay
    active and are cited as support. A new record joins an existing summary
    only if it says one of that summary's phrases (``by_phrase``): sharing a
    broad word is not enough ("I prefer window seats now" never joins
    "aisle seat").
    """
    fresh = [m for m in members if m.id not in owner]
    if not fresh or support_of(members) < rules.min_support:
        return None
    owners = Counter(owner[m.id].id for m in members if m.id in owner)
    replaces = None
    if owners:
        cons_id = owners.most_common(1)[0][0]
        replaces, sources = next((c, s) for c, s in consolidated if c.id == cons_id)
        alive = {s.id: s for s in sources if s.embedding is not None and s.text}
        if by_phrase:
            phrases = [p for p, _ in key_phrases(list(alive.values()), rules, ignore)]
            fresh = [m for m in fresh if says(m, phrases, ignore)]
            if not fresh:
                return None
        members = sorted({**alive, **{m.id: m for m in fresh}}.values(), key=lambda m: (m.created_at, m.id))
    summary = summarise(members, rules, ignore)
    if summary is None:
        return None
    return Plan(tuple(members), summary, replaces, tuple(m.id for m in fresh if m.kind in compact))


def _extend(plans: list[Plan], plan_of: dict[str, int], members: list[Memory], taken: set[str], owner, consolidated,
            rules: Rules, ignore) -> tuple[int, Plan] | None:
    """Fold a term's leftover records into the plan that already holds most of that term's records.

    The leftovers must say one of the plan's phrases ("Aisle next time,
    please" joins "aisle seat" in this run instead of forcing a second
    version later); a broad shared word alone never pulls a record in.
    """
    held = Counter(plan_of[m.id] for m in members if m.id in plan_of)
    rest = [m for m in members if m.id not in taken]
    if not held or not rest:
        return None
    i, n = held.most_common(1)[0]
    # the term must be mostly this plan's already (twice as many as the leftovers)
    if n < 2 * len(rest) or plans[i].replaces is not None:
        return None
    near = [m for m in rest if says(m, plans[i].summary.phrases, ignore)]
    if not near:
        return None
    p = _decide(list(plans[i].members) + near, owner, consolidated, rules, ignore, rules.topic_kinds)
    return (i, p) if p is not None else None


def plan(
    scope: Scope,
    records: Sequence[Memory],
    consolidated: Sequence[tuple[Memory, Sequence[Memory]]] = (),
    rules: Rules = Rules(),
) -> list[Plan]:
    """Consolidation decisions for one scope. Pure.

    ``records`` are the scope's active memories (ineligible ones are ignored);
    ``consolidated`` pairs each active consolidated memory with its surviving
    sources, so a new record on a known topic extends that memory (a new
    version superseding it) instead of starting a second one.

    A topic (shared words) needs at least one episode or preference among its
    members; facts add support and are cited but stay active. Facts alone only
    group when they are near-duplicates of each other, and then compact.
    """
    ignore = name_tokens(scope)
    active = [m for m in records if m.scope == scope and eligible(m, rules)]
    if not active:
        return []
    owner: dict[str, Memory] = {}
    pool: dict[str, Memory] = {m.id: m for m in active}
    for cons, sources in consolidated:
        for src in sources:
            if src.scope == scope and src.embedding is not None and src.text:
                owner[src.id] = cons
                pool.setdefault(src.id, src)
    ordered = sorted(pool.values(), key=lambda m: (m.created_at, m.id))
    topical = [m for m in ordered if m.kind in rules.topic_kinds or m.kind in rules.claim_kinds]
    claims = [m for m in ordered if m.kind in rules.claim_kinds]
    plans: list[Plan] = []
    taken: set[str] = set()

    tokens = {m.id: {t[0] for t in content_tokens(m.text, ignore)} for m in topical}
    df = Counter(t for ts in tokens.values() for t in ts)
    background = (
        {t for t, n in df.items() if n > rules.background_share * len(topical)}
        if len(topical) >= rules.background_min_records
        else set()
    )
    # A word that only ever opens its sentences is the subject ("Kim asked
    # for ...", "Hana is ..."), usually the user or someone they talk about,
    # not a topic: it never seeds one (it may still appear in a phrase).
    firsts = Counter(first_word(m.text) for m in topical)
    subjects = {t for t, n in firsts.items() if n == df.get(t, 0) and n >= rules.min_support}
    by_term: dict[str, list[Memory]] = {}
    for m in topical:
        for t in tokens[m.id] - subjects:
            by_term.setdefault(t, []).append(m)
    # Specific words first; a word most of the user's records share (a name,
    # a habit of phrasing) only makes a topic if its records are near-paraphrases.
    plan_of: dict[str, int] = {}
    # Tightest topics first (a specific word like "aisle" before a broad one like
    # "flight" that several topics share), then the best supported.
    strong = {t: ms for t, ms in by_term.items() if support_of(ms) >= rules.min_support}
    order = sorted(strong, key=lambda t: (t in background, -round(_mean_cosine(strong[t]), 3), -support_of(strong[t]), t))
    for term, members in ((t, strong[t]) for t in order):
        extended = _extend(plans, plan_of, members, taken, owner, consolidated, rules, ignore)
        if extended is not None:
            i, p = extended
            plans[i] = p
            taken.update(m.id for m in p.members)
            plan_of.update((m.id, i) for m in p.members)
            continue
        members = [m for m in members if m.id not in taken]
        if support_of(members) < rules.min_support:
            continue
        if term in background:
            # all of them or none: a tight subset of a name's records is not a topic
            if len(_coherent(members, rules.background_coherence)) < len(members):
                continue
        else:
            members = _coherent(members, rules.coherence)
        if not any(m.kind in rules.topic_kinds for m in members):
            continue
        p = _decide(members, owner, consolidated, rules, ignore, rules.topic_kinds)
        if p is not None:
            taken.update(m.id for m in p.members)
            plan_of.update((m.id, len(plans)) for m in p.members)
            plans.append(p)

    # One matrix-vector product per seed instead of a Python loop over every pair: a large user's facts
    # (thousands) are re-planned in a fraction of a second, and only the few near ones are looked at.
    matrix = np.stack([c.embedding for c in claims]) if claims else None
    for seed in claims:
        if seed.id in taken:
            continue
        near = np.flatnonzero(matrix @ seed.embedding >= rules.near_duplicate)
        group = [claims[i] for i in near.tolist() if claims[i].id not in taken]
        if len(group) < 2 or not near_duplicates(group, rules.near_duplicate):
            continue
        p = _decide(group, owner, consolidated, rules, ignore, rules.claim_kinds, by_phrase=False)
        if p is not None:
            taken.update(m.id for m in p.members)
            plans.append(p)
    return plans


_CHANGE = re.compile(
    r"\b(now|actually|instead|any ?more|no longer|these days|changed|switch(?:ed)?|from now on|not .{0,20}any ?more)\b",
    re.IGNORECASE,
)


def contradicted(cons: Memory, sources: Sequence[Memory], records: Sequence[Memory], rules: Rules = Rules(),
                 ignore: frozenset[str] = frozenset()) -> Memory | None:
    """A newer statement by the user that overrides the consolidated preference ``cons``; None if none. Pure.

    The statement must be the user's own (not a tool's or an inference),
    newer than every source, about the same thing (it names the head word of
    a summary phrase: "seat" of "aisle seat") without repeating the phrase,
    and carry an explicit change marker ("now", "actually", "instead", "any
    more", ...): "Actually I prefer a window seat now" overrides "aisle seat".
    """
    if cons.kind is not Kind.PREFERENCE or not sources:
        return None
    phrases = [p for p, _ in key_phrases(sources, rules, ignore)]
    heads = {content_tokens(p, ignore)[-1][0] for p in phrases if content_tokens(p, ignore)}
    newest = max(s.created_at for s in sources)
    cited = set(cons.source_refs)
    for m in sorted(records, key=lambda m: (m.created_at, m.id), reverse=True):
        if (
            m.status is Status.ACTIVE
            and m.source is Source.USER_SAID
            and m.id not in cited
            and m.created_at > newest
            and _CHANGE.search(m.text)
            and heads & {t for t, _ in content_tokens(m.text, ignore)}
            and not says(m, phrases, ignore)
        ):
            return m
    return None
