"""Reconciliation: decide what one provisional candidate does to what is already known, then plan the write.

Three pure steps, no I/O:

- ``decide(candidate, neighbours) -> Decision`` is the offline rules engine:
  near-verbatim duplicates are NOOP; a claim about the same attribute slot
  with a new value (or a retraction of the old one) is UPDATE of that
  memory; anything else is ADD.
- ``guard(decision, candidate, shown)`` makes any decider's verdict safe:
  only memories that were shown may be updated or deleted (anything else
  becomes ADD), a less trusted source never overrides a more trusted one
  (a tool result or an inference never retires what the user said), and a
  candidate older than its target never supersedes it (NOOP, kept retired).
- ``plan(candidate, decision, target, now, embed)`` turns the verdict into
  one guarded ``Changeset``: the candidate must still be PROVISIONAL and
  the target still ACTIVE, so two workers racing on the same candidate
  cannot both apply (the loser gets ``Conflict`` and writes nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

import numpy as np

from kenning.lifecycle import injection, instructions, safety, secrets, slots
from kenning.lifecycle.extraction import chatter, dates
from kenning.lifecycle.shape_change import count_change, value_change
from kenning.lifecycle.quantities import quantity_change
from kenning.lifecycle.retrieve import terms
from kenning.stores.base import audit_entry
from kenning.types import Changeset, Decision, Kind, Memory, Op, Source, Status, Transition, new_id
from kenning.lifecycle.changes import (  # noqa: F401  (re-exported: reconcile.X is the public name)
    about_last, change_target, contrast_correction, correction, fact_of, facts_of, pointed_retraction,
    retract_last, standalone_correction,
)
from kenning.lifecycle.attribute_change import attribute_change
from kenning.lifecycle.denials import denial
from kenning.lifecycle.relations import birth_change, couple_change, death_change, relation_change
from kenning.lifecycle.matching import (  # noqa: F401  (re-exported)
    CHANGED, CHATTER, CORRECTED, DUPLICATE, DUPLICATE_COSINE, GENERIC, HEDGE, LESS_TRUSTED, MAX_MERGED, MERGED, NEW,
    NOT_ACTIVE, NOT_SHOWN, POINTED, POINTER_MISSED, PROCEDURE_REFINE_COSINE, REFINED, RELATION, RETRACTION,
    SLOT_CHANGE, STALE, TRUST, UPGRADE, Neighbour, conflicts, is_duplicate, same_value, slots_of, trust,
)

def decide(candidate: Memory, neighbours: Sequence[Neighbour]) -> Decision:
    """The offline rules engine's verdict for ``candidate`` against the active ``neighbours`` it was shown.

    A pointer ("forget what I said about the divorce", metadata ``pointer``) retracts what it points at
    or, pointing at nothing, is dropped: an instruction about memory is never itself a memory.
    """
    ranked = sorted(neighbours, key=lambda n: -n.cosine)
    if about_last(candidate):  # "wait no, 7pm", "scratch that": decided against what was said last, never stored
        fixed = standalone_correction(candidate, ranked) if candidate.metadata.get("correct_to") else retract_last(candidate, ranked)
        return fixed or Decision(Op.NOOP, None, None, POINTER_MISSED)
    corrected = correction(candidate, ranked) or contrast_correction(candidate, ranked)  # a value replaced in so many words
    if candidate.metadata.get("pointer"):
        return corrected or pointed_retraction(candidate, ranked) or Decision(Op.NOOP, None, None, POINTER_MISSED)
    if corrected is not None:
        return corrected
    fixed = pointed_retraction(candidate, ranked) or relation_change(candidate, ranked) or couple_change(candidate, ranked) or death_change(
        candidate, ranked) or birth_change(candidate, ranked)
    if fixed is not None:
        return fixed
    for n in ranked:
        if is_duplicate(candidate, n.memory, n.cosine):
            if trust(candidate) > trust(n.memory) and candidate.created_at >= n.memory.created_at:
                return Decision(Op.UPDATE, n.memory.id, None, UPGRADE)
            return Decision(Op.NOOP, n.memory.id, None, DUPLICATE)
    moved = attribute_change(candidate, ranked) or count_change(candidate, ranked)
    if moved is not None:
        return moved
    mine = slots_of(candidate)
    for n in ranked if mine else ():
        theirs = slots_of(n.memory)
        verdicts = [(conflicts(new, old), new) for new in mine for old in theirs]
        changed = [new for v, new in verdicts if v]
        if changed:
            return Decision(Op.UPDATE, n.memory.id, None, RETRACTION if changed[0].negated else SLOT_CHANGE)
        if any(v is False for v, _ in verdicts) and len(mine) == 1:
            if trust(candidate) > trust(n.memory) and candidate.created_at >= n.memory.created_at:
                return Decision(Op.UPDATE, n.memory.id, None, UPGRADE)
            new_words = terms(candidate.text) - terms(n.memory.text) - GENERIC
            merged = f"{n.memory.text.rstrip('.')}; {candidate.text[:1].lower()}{candidate.text[1:]}"
            if new_words and trust(candidate) >= trust(n.memory) and len(merged) <= MAX_MERGED:
                # same attribute, same value, new words ("doesn't eat meat" + "is vegetarian"): one record, both wordings
                return Decision(Op.UPDATE, n.memory.id, merged, MERGED)
            return Decision(Op.NOOP, n.memory.id, None, DUPLICATE)
    # a changed value, a new reading of a weight, dose or rent, or a "no" to a claim held
    moved = value_change(candidate, ranked) or quantity_change(candidate, ranked) or denial(candidate, ranked)
    if moved is not None:
        return moved
    changed = change_target(candidate, ranked)
    if changed is not None:
        return Decision(Op.UPDATE, changed.id, None, CHANGED)
    if candidate.kind is Kind.PROCEDURE:
        replaced = instructions.replaced_instruction(candidate, ranked)  # "answer in korean" after "… in english"
        if replaced is not None:
            return replaced
        for n in ranked:
            if n.memory.kind is Kind.PROCEDURE and n.cosine >= PROCEDURE_REFINE_COSINE:
                return Decision(Op.UPDATE, n.memory.id, None, REFINED)
    return Decision(Op.ADD, None, None, NEW)


def guard(
    decision: Decision,
    candidate: Memory,
    shown: Mapping[str, Memory],
    *,
    allow_secrets: bool = False,
    max_chars: int = 4000,
) -> Decision:
    """``decision`` made safe to apply, whoever produced it.

    - UPDATE/DELETE of an id that was not shown, or no longer active -> ADD;
    - a less trusted candidate (tool result, inference) never updates or
      deletes a more trusted memory (what the user said) -> ADD;
    - a candidate older than its target never supersedes it -> NOOP (stale);
    - a hedge ("might quit my job", metadata ``hedge``) never updates or deletes -> ADD;
    - replacement text holding a secret, an injected instruction, or too
      long, is dropped in favour of the candidate's own text.
    """
    op = decision.op
    if op not in (Op.ADD, Op.UPDATE, Op.DELETE, Op.NOOP):
        return Decision(Op.ADD, None, None, NEW)
    if op in (Op.UPDATE, Op.DELETE):
        target = shown.get(decision.target_id or "")
        if target is None:
            return Decision(Op.ADD, None, None, NOT_SHOWN)
        if target.status is not Status.ACTIVE or target.scope != candidate.scope:
            return Decision(Op.ADD, None, None, NOT_ACTIVE)
        if trust(candidate) < trust(target):
            return Decision(Op.ADD, None, None, LESS_TRUSTED)
        if candidate.metadata.get("hedge"):
            return Decision(Op.ADD, None, None, HEDGE)
        if candidate.created_at < target.created_at:
            return Decision(Op.NOOP, target.id, None, STALE)
    if op is Op.NOOP and decision.target_id not in shown:
        decision = Decision(Op.NOOP, None, None, decision.reason or DUPLICATE)
    text = decision.text
    if text is not None:
        text = text.strip()
        bad = (
            not text
            or len(text) > max_chars
            or (not allow_secrets and secrets.has_secret(text))
            or injection.is_injection(text)
            or not _kept(candidate, text, _target_text(shown, decision))
        )
        if bad or op is not Op.UPDATE:
            text = None
    if op is Op.UPDATE:
        also = tuple(_also(decision, candidate, shown, allow_secrets, max_chars))
    elif op is Op.DELETE and decision.reason == POINTED:  # "delete everything about Kacper": the further targets
        also = tuple((i, "") for i, _ in decision.also if _may_touch(shown.get(i), candidate) and i != decision.target_id)
    else:
        also = ()
    return Decision(decision.op, decision.target_id, text, decision.reason, also)


def _may_touch(other: Memory | None, candidate: Memory) -> bool:
    """Whether a decision may take ``other`` as a further target: shown, active, in the candidate's scope, no more
    trusted than the candidate."""
    return other is not None and other.status is Status.ACTIVE and other.scope == candidate.scope and trust(candidate) >= trust(other)


def _also(decision: Decision, candidate: Memory, shown: Mapping[str, Memory], allow_secrets: bool, max_chars: int):
    """The further rewrites of ``decision`` that pass the checks its main target passed: shown, active, in the
    candidate's scope, no more trusted than the candidate, not older than it, and a safe text."""
    seen = {decision.target_id}
    for target_id, text in decision.also:
        other = shown.get(target_id)
        text = (text or "").strip()
        if target_id in seen or not _may_touch(other, candidate) or candidate.created_at < other.created_at or candidate.metadata.get("hedge"):
            continue
        if text and (len(text) > max_chars or (not allow_secrets and secrets.has_secret(text)) or injection.is_injection(text)):
            continue
        seen.add(target_id)
        yield target_id, text  # "" retires it with the target


def unless_chatter(decision: Decision, candidate: Memory, shown: Mapping[str, Memory]) -> Decision:
    """A guarded ``decision`` for a candidate the chatter model marked (``chatter.MARK``): kept only when it
    changes a shown memory (an update, a retraction); a new memory it would add is not stored (NOOP)."""
    if chatter.MARK not in candidate.metadata:
        return decision
    changes = decision.op in (Op.UPDATE, Op.DELETE) and decision.target_id in shown
    return decision if changes or decision.op is Op.NOOP else Decision(Op.NOOP, None, None, CHATTER)


def _kept(candidate: Memory, text: str, target: str) -> bool:
    """Whether replacement ``text`` (with its target's) keeps every number, code and name of the candidate: "850"
    is kept by "850mg"; the old value a contrast sets aside ("its 850 not 500") need not be. A contrast's
    other words only say which value it corrects ("i said 10 years at the Crown, its actually 12"): its new
    values are what must be kept."""
    news = candidate.metadata.get("contrast_new")
    if candidate.metadata.get("contrast_old") and isinstance(news, (list, tuple)):
        need = slots.distinctive(" ".join(map(str, news)))
    else:
        need = slots.distinctive(dates.said(candidate))  # the dates the engine wrote in are the candidate's, not the target's
    need -= {str(candidate.metadata.get("contrast_old", "")).lower()}
    have = slots.distinctive(text) | slots.distinctive(target)
    return all(t in have or t.rstrip("s") in have or any(h.startswith(t) and h[len(t):].isalpha() for h in have) for t in need)


def _target_text(shown: Mapping[str, Memory], decision: Decision) -> str:
    t = shown.get(decision.target_id or "")
    return t.text if t else ""


def plan(
    candidate: Memory,
    decision: Decision,
    target: Memory | None,
    now: datetime,
    embed: Callable[[str], np.ndarray],
    *,
    decider: str = "rules",
    shown: Mapping[str, Memory] | None = None,
) -> tuple[Changeset, str | None]:
    """The one guarded ``Changeset`` applying ``decision``, and the id of the memory left active (if any).

    ADD activates the candidate. UPDATE inserts a new active version that
    supersedes the target, retires the target and folds the candidate into
    it. DELETE retires the target. NOOP retires the candidate (a duplicate's
    text is also erased, since an identical active memory holds it). Every
    transition is guarded: the candidate must be PROVISIONAL, the target ACTIVE.
    """
    scope = candidate.scope
    src = candidate.source.value
    why = f"{decider}: {decision.reason}" if decision.reason else decider
    cand_done = Transition(candidate.id, (Status.PROVISIONAL,), Status.RETIRED)
    if candidate.source is Source.TOOL_RESULT and candidate.kind is Kind.PROCEDURE:
        # Tool content is never an instruction to follow, whoever classified it.
        candidate = candidate.evolve(kind=Kind.EPISODE)
    if decision.op is Op.ADD or (decision.op in (Op.UPDATE, Op.DELETE) and target is None):
        change = Changeset(
            transitions=(Transition(candidate.id, (Status.PROVISIONAL,), Status.ACTIVE),),
            audit=(audit_entry(scope, now, Op.ADD, [candidate.id], src, why),),
        )
        return change, candidate.id
    if decision.op is Op.UPDATE:
        assert target is not None
        text = decision.text or candidate.text
        # a correction fixes a value of the target, and a rewrite of the target's words is the target changed:
        # either keeps the target's kind and weight
        kept = decision.reason in (CORRECTED, RELATION) or text != candidate.text
        new = candidate.evolve(
            id=new_id("mem"),
            text=text,
            embedding=candidate.embedding if text == candidate.text else embed(text),
            status=Status.ACTIVE,
            supersedes=(target.id,),
            kind=target.kind if kept else candidate.kind,
            importance=max(candidate.importance, target.importance) if candidate.kind is target.kind or kept else candidate.importance,
            sensitivity=safety.sensitivity_of(text) if text != candidate.text else candidate.sensitivity,
            # a rewrite of the target ("… with their ex-girlfriend Roisin") holds words of both turns: it cites both
            source_refs=tuple(dict.fromkeys((*target.source_refs, *candidate.source_refs))) if text != candidate.text else candidate.source_refs,
            metadata={**dict(candidate.metadata), "candidate": candidate.id},
        )
        inserts, retire, audit = [new], [Transition(target.id, (Status.ACTIVE,), Status.RETIRED)], []
        for other_id, other_text in decision.also:  # the same change in the other memories it touches
            other = (shown or {}).get(other_id)
            if other is None:
                continue
            if not other_text:  # the same old value held in another memory: retired with the target
                retire.append(Transition(other.id, (Status.ACTIVE,), Status.RETIRED))
                audit.append(audit_entry(scope, now, Op.UPDATE, [other.id, candidate.id], src, why))
                continue
            again = other.evolve(
                id=new_id("mem"), text=other_text, embedding=embed(other_text), status=Status.ACTIVE, supersedes=(other.id,), created_at=candidate.created_at,
                sensitivity=safety.sensitivity_of(other_text), source_refs=tuple(dict.fromkeys((*other.source_refs, *candidate.source_refs))),
                metadata={**dict(other.metadata), "candidate": candidate.id},
            )
            inserts.append(again)
            retire.append(Transition(other.id, (Status.ACTIVE,), Status.RETIRED))
            audit.append(audit_entry(scope, now, Op.UPDATE, [again.id, other.id, candidate.id], src, why))
        change = Changeset(
            inserts=tuple(inserts),
            transitions=(cand_done, *retire),
            deletes=(candidate.id,),
            audit=(audit_entry(scope, now, Op.UPDATE, [new.id, target.id, candidate.id], src, why), *audit),
        )
        return change, new.id
    if decision.op is Op.DELETE:
        assert target is not None
        gone = [target.id, *(i for i, _ in decision.also if i != target.id)]  # a pointed deletion may take several
        change = Changeset(
            transitions=(cand_done, *(Transition(i, (Status.ACTIVE,), Status.RETIRED) for i in gone)),
            deletes=(candidate.id,),
            audit=(audit_entry(scope, now, Op.DELETE, [*gone, candidate.id], src, why),),
        )
        return change, None
    ids = [candidate.id] + ([decision.target_id] if decision.target_id else [])
    erase = (candidate.id,) if decision.reason in (DUPLICATE, UPGRADE) else ()
    change = Changeset(transitions=(cand_done,), deletes=erase, audit=(audit_entry(scope, now, Op.NOOP, ids, src, why),))
    return change, decision.target_id
