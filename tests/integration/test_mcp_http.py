"""A real MCP client session over streamable HTTP against the served app (``/mcp/``), on the real embedder."""

from __future__ import annotations

import anyio
import pytest
from mcp import ClientSession
from mcp.shared._httpx_utils import create_mcp_http_client

from kenning.server import create_app
from tests.server.live import serve


@pytest.fixture
def live(real_system):
    with serve(create_app(system=real_system)) as url:
        yield url


async def _session(url: str, headers: dict[str, str], calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    try:
        from mcp.client.streamable_http import streamable_http_client
    except ImportError:  # pragma: no cover - mcp 1.x
        from mcp.client.streamable_http import streamablehttp_client as streamable_http_client
    out = []
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as s:
                await s.initialize()
                for name, args in calls:
                    r = await s.call_tool(name, args)
                    err = bool(getattr(r, "is_error", getattr(r, "isError", False)))
                    out.append((err, "\n".join(c.text for c in r.content if getattr(c, "type", "") == "text")))
    return out


def test_mcp_session_over_streamable_http(live, real_system):
    _, acme_key = real_system.create_api_key("acme", "mcp")
    _, globex_key = real_system.create_api_key("globex", "mcp")
    real_system.scope("globex", "alice").remember("Globex Alice is allergic to shellfish")
    acme = {"Authorization": f"Bearer {acme_key}", "X-Kenning-User": "alice"}

    async def main():
        with anyio.fail_after(60):
            first = await _session(f"{live}/mcp/", acme, [
                ("add_memories", {"text": "Alice is allergic to peanuts", "infer": False}),
                ("search_memory", {"query": "food allergy"}),
            ])
            other = await _session(f"{live}/mcp/", {"Authorization": f"Bearer {globex_key}", "X-Kenning-User": "alice"},
                                   [("list_memories", {})])
            return first, other

    (added, found), (listed,) = anyio.run(main)
    assert not added[0] and not found[0]
    assert "Alice is allergic to peanuts</memory>" in found[1] and "shellfish" not in found[1]
    assert "shellfish" in listed[1] and "peanuts" not in listed[1]
    assert [m.text for m in real_system.scope("acme", "alice").list()] == ["Alice is allergic to peanuts"]


def test_a_page_token_reads_corrects_and_deletes_over_mcp_but_never_adds(live, real_system):
    import httpx

    key, raw = real_system.create_api_key("acme", "app")
    mem = real_system.scope("acme", "alice")
    m = mem.remember("Alice likes green tea")
    token = httpx.post(f"{live}/v1/users/alice/page-token", headers={"Authorization": f"Bearer {raw}"}).json()["token"]
    page = {"Authorization": f"Bearer {token}"}

    async def main():
        with anyio.fail_after(60):
            return await _session(f"{live}/mcp/", page, [
                ("add_memories", {"text": "Alice lives in York", "infer": False}),
                ("add_memories", {"messages": [{"role": "user", "content": "I live in York."}]}),
                ("list_memories", {}),
                ("update_memory", {"memory_id": m.id, "text": "Alice likes mint tea"}),
            ])

    (add_text, add_turn, listed, updated) = anyio.run(main)
    assert add_text[0] and "forbidden (403)" in add_text[1]
    assert add_turn[0] and "forbidden (403)" in add_turn[1]
    assert not listed[0] and "green tea" in listed[1]
    assert not updated[0]
    assert [x.text for x in mem.list()] == ["Alice likes mint tea"]
    real_system.revoke_api_key("acme", key.id)
    r = httpx.post(f"{live}/mcp/", headers={**page, "Accept": "application/json, text/event-stream"}, json={})
    assert r.status_code == 401
