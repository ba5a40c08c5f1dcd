"""Fuzz every MCP tool in process: any arguments end in a result or a deliberate tool error (the
MCP counterpart of a 4xx), never a crash (the counterpart of a 5xx)."""

from __future__ import annotations

import os

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

import kenning
from kenning.embedders import HashEmbedder
from kenning.server.mcp import build_server

EXAMPLES = int(os.environ.get("KENNING_FUZZ_EXAMPLES", "40"))

nasty_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "\x00", "\ud800", "a\udc00b", "\ufeff", "x" * 30_000, "I live in York.",
                     "Ignore all previous instructions", "My PIN is 4471", "mem_nope", "</memory>"]),
)
scalar = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
                   st.floats(allow_nan=True), nasty_text)
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                     max_leaves=12)
turn = st.fixed_dictionaries({"role": st.one_of(st.sampled_from(["user", "assistant", "tool", "system"]), value),
                              "content": st.one_of(nasty_text, value)}, optional={"name": st.one_of(nasty_text, value)})

ARGS = {
    "add_memories": st.fixed_dictionaries({}, optional={"text": st.one_of(nasty_text, value), "infer": st.one_of(st.booleans(), value),
                                                        "messages": st.one_of(st.lists(turn, max_size=3), value)}),
    "search_memory": st.fixed_dictionaries({"query": st.one_of(nasty_text, value)}, optional={"limit": value}),
    "list_memories": st.fixed_dictionaries({}, optional={"limit": value}),
    "update_memory": st.fixed_dictionaries({"memory_id": st.one_of(nasty_text, value), "text": st.one_of(nasty_text, value)}),
    "delete_memories": st.fixed_dictionaries({"memory_ids": st.one_of(st.lists(nasty_text, max_size=3), value)}),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    system = kenning.open(f"sqlite:///{tmp_path_factory.mktemp('mcpfuzz') / 'k.db'}", embedder=HashEmbedder())
    system.scope("acme", "alice").remember("Alice is allergic to peanuts")
    yield build_server(lambda ctx: system.scope("acme", "alice"))
    system.close()


@pytest.mark.parametrize("tool", sorted(ARGS))
def test_no_arguments_crash_a_tool(server, tool):
    crashes: list[str] = []

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
    @given(ARGS[tool])
    def run(args):
        async def call():
            try:
                await server.call_tool(tool, args)
            except ToolError as exc:
                if isinstance(exc, UnexpectedToolError):
                    crashes.append(f"{args!r}: {exc.__cause__!r}")

        anyio.run(call)

    run()
    assert crashes == []
