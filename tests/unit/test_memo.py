"""Bounded caches of pure text functions (lifecycle/memo.py)."""

from __future__ import annotations

from kenning.lifecycle import memo, secrets, slots


def test_a_cached_list_answer_is_the_same_and_a_fresh_list_each_call():
    seen = []

    @memo.list_cache
    def words(text: str) -> list[str]:
        seen.append(text)
        return text.split()

    a = words("my pin is 4412")
    a.append("changed by the caller")
    assert words("my pin is 4412") == ["my", "pin", "is", "4412"]
    assert seen == ["my pin is 4412"]  # worked out once
    memo.clear()
    assert words("my pin is 4412") == ["my", "pin", "is", "4412"] and len(seen) == 2


def test_cached_secrets_and_slots_answer_as_before_and_callers_cannot_change_the_cache():
    text = "my wifi password is Tr0ub4dor&3 and I live in Leeds"
    spans = secrets.find_secrets(text)
    assert spans and secrets.find_secrets(text) == spans
    spans.clear()
    assert secrets.find_secrets(text) != []
    assert secrets.SECRET_MARK in secrets.mask_secrets(text) and "Tr0ub4dor" not in secrets.mask_secrets(text)
    found = slots.parse_all("User lives in Leeds")
    assert [s.key for s in found] == ["residence"]
    found.clear()
    assert [s.value for s in slots.parse_all("User lives in Leeds")] == ["leeds"]
