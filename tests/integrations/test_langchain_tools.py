"""The LangChain tools act for one user through the facade, render with render_for_prompt and report errors as text."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_core")

from kenning.integrations.langchain import memory_tools  # noqa: E402


def test_search_add_delete_tools(system):
    alice = system.scope("acme", "alice")
    search, add, delete = memory_tools(alice)
    assert [t.name for t in (search, add, delete)] == ["search_memory", "add_memory", "delete_memory"]
    assert set(search.args) == {"query"} and set(add.args) == {"text"} and set(delete.args) == {"memory_id"}
    assert add.invoke({"text": "I'm vegetarian."}).startswith("Remembered")
    block = search.invoke({"query": "vegetarian"})
    assert block == alice.render_for_prompt("vegetarian") and "vegetarian" in block
    (m,) = alice.list()
    assert m.source.value == "inferred" and m.confidence <= 0.45  # the model's words, not the user's (issue 11)
    assert delete.invoke({"memory_id": m.id}).startswith("Deleted") and alice.count() == 0
    assert delete.invoke({"memory_id": "mem_x"}) == "Error: NotFound: no memory 'mem_x' in this scope"
    assert system.scope("acme", "bob").count() == 0
