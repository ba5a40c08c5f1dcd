"""Every write path is guarded: the suites in ``tests/unit/safety_corpus.py`` sent through ``add``,
``remember``, REST (``/memories`` and ``/messages``) and MCP (``add_memories`` with text, with
``infer=false`` and with the user's turn in ``messages``) store no secret in any form (neither in any
record, audit entry nor the raw database file), make no procedure and no memory with confidence 0.5 or
more from an injection, and keep every benign message."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from kenning.server.mcp import build_server
from kenning.types import Kind, Status
from tests.unit.safety_corpus import BENIGN, BENIGN_FROM_USER, SECRETS, TOOL_PAYLOADS, USER_PAYLOADS

ALL = list(Status)


def _mcp(system, user: str, args: dict) -> str | None:
    """Call add_memories in process for (acme, user); None when the tool refused."""
    server = build_server(lambda ctx: system.scope("acme", user))

    async def call():
        try:
            result = await server.call_tool("add_memories", args)
        except ToolError:
            return None
        return str(result)

    return anyio.run(call)


def _surfaces(system, client, acme):
    """name -> send(user, text): every way text reaches the store."""

    def facade_add(user, text):
        system.scope("acme", user).add(text, wait=True)

    def facade_add_tool(user, text):
        system.scope("acme", user).add([{"role": "tool", "name": "web_fetch", "content": text}], wait=True)

    def facade_add_relayed(user, text):
        system.scope("acme", user).add(text, wait=True, source="inferred")

    def facade_remember(user, text):
        try:
            system.scope("acme", user).remember(text)
        except ValueError:
            pass

    def facade_update(user, text):
        m = system.scope("acme", user).remember("A note to be corrected later")
        try:
            system.scope("acme", user).update(m.id, text=text)
        except ValueError:
            pass

    def rest_memories(user, text):
        r = client.post(f"/v1/users/{user}/memories", json={"text": text}, headers=acme.auth)
        assert r.status_code in (201, 422), r.text

    def rest_memories_procedure(user, text):
        r = client.post(f"/v1/users/{user}/memories", json={"text": text, "kind": "procedure"}, headers=acme.auth)
        assert r.status_code == 422, r.text

    def rest_messages(user, text):
        r = client.post(f"/v1/users/{user}/messages", json={"messages": text, "wait": True}, headers=acme.auth)
        assert r.status_code == 200, r.text

    def rest_patch(user, text):
        m = system.scope("acme", user).remember("A note to be corrected later")
        r = client.patch(f"/v1/users/{user}/memories/{m.id}", json={"text": text}, headers=acme.auth)
        assert r.status_code in (200, 422), r.text

    def mcp_text(user, text):
        _mcp(system, user, {"text": text})

    def mcp_remember(user, text):
        _mcp(system, user, {"text": text, "infer": False})

    def mcp_user_turn(user, text):
        _mcp(system, user, {"messages": [{"role": "user", "content": text}]})

    return {f.__name__: f for f in (facade_add, facade_add_tool, facade_add_relayed, facade_remember, facade_update,
                                    rest_memories, rest_memories_procedure, rest_messages, rest_patch, mcp_text,
                                    mcp_remember, mcp_user_turn)}


def _text_of(mem) -> str:
    data = mem.export()
    parts = [m.get("text", "") + json.dumps(m.get("metadata", {})) for m in data["memories"]]
    parts += [a.get("reason", "") + a.get("source", "") for a in data["audit"]]
    return "\n".join(parts)


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def _squash(s: str) -> str:
    return re.sub(r"[\s-]", "", s).lower()


@pytest.fixture
def surfaces(system, client, acme):
    return _surfaces(system, client, acme)


def test_no_secret_is_stored_on_any_path(system, surfaces, tmp_path):
    stored = []
    for sname, send in surfaces.items():
        for i, (text, secret) in enumerate(SECRETS):
            user = f"s-{sname}-{i}"
            send(user, text)
            held = _text_of(system.scope("acme", user))
            if secret in held or _squash(secret) in _squash(held):
                stored.append((sname, text))
    raw = _raw(tmp_path / "k.db")
    # short or hex-only secrets could match ids and vector bytes by chance: the raw check takes the rest
    in_file = [s for _, s in SECRETS if len(s) >= 6 and not re.fullmatch(r"[0-9a-f -]+", s) and s.encode() in raw]
    print(f"\nsecrets stored: {len(stored)} of {len(SECRETS) * len(surfaces)} sends; in the raw file: {len(in_file)}")
    assert stored == []
    assert in_file == []


def _bad_from_injection(mem) -> list[str]:
    return [f"{m.kind.value}@{m.confidence:.2f}: {m.text}" for m in mem.list(statuses=ALL)
            if m.text and not m.text.startswith("A note to be corrected")
            and (m.kind is Kind.PROCEDURE or m.confidence >= 0.5)]


@pytest.mark.parametrize("suite", ["tool", "user"])
def test_no_injection_becomes_a_procedure_or_a_confident_memory(system, surfaces, suite):
    payloads = TOOL_PAYLOADS if suite == "tool" else USER_PAYLOADS
    bad = []
    for sname, send in surfaces.items():
        for i, text in enumerate(payloads):
            user = f"i-{suite}-{sname}-{i}"
            send(user, text)
            bad += [f"{sname}: {b}" for b in _bad_from_injection(system.scope("acme", user))]
    print(f"\n{suite} injections stored as procedure or confidence >= 0.5: {len(bad)} of {len(payloads) * len(surfaces)} sends")
    assert bad == []


def test_user_payloads_are_not_stored_at_all_from_the_users_own_turn(system):
    for i, text in enumerate(USER_PAYLOADS):
        mem = system.scope("acme", f"u{i}")
        result = mem.add(text, wait=True)
        assert [m for m in mem.list(statuses=ALL) if m.status is not Status.DELETED or m.text] == [], text  # a capture's tombstone holds nothing
        assert "injection" in result.withheld or not result.ids


def test_every_benign_message_is_kept(system, client, acme):
    lost = []
    for i, text in enumerate(BENIGN):
        mem = system.scope("acme", f"b{i}")
        m = mem.remember(text)  # raises if refused
        assert m.text == text
        # through extraction a benign turn may hold no claim (small talk), but nothing of it is withheld as a secret or an injection
        r = client.post(f"/v1/users/b{i}/messages", json={"messages": text, "wait": True}, headers=acme.auth)
        assert r.status_code == 200, r.text
        if r.json()["withheld"]:
            lost.append(("rest messages", text))
        said = _mcp(system, f"m{i}", {"messages": [{"role": "user", "content": text}]})
        if said is None or "Withheld" in said:
            lost.append(("mcp messages", text))
        if _mcp(system, f"n{i}", {"text": text, "infer": False}) is None:
            lost.append(("mcp remember", text))
        said = _mcp(system, f"t{i}", {"text": text})
        if said is None or "Withheld" in said:
            lost.append(("mcp text", text))
        r = client.post(f"/v1/users/r{i}/memories", json={"text": text}, headers=acme.auth)
        if r.status_code != 201:
            lost.append(("rest memories", text))
    print(f"\nbenign lost: {len(lost)} of {len(BENIGN) * 5} sends")
    assert lost == []


def test_a_users_own_request_to_send_somewhere_is_kept_but_an_agents_is_not(system, client, acme):
    for i, text in enumerate(BENIGN_FROM_USER):
        r = client.post(f"/v1/users/f{i}/messages", json={"messages": text, "wait": True}, headers=acme.auth)
        assert r.status_code == 200 and r.json()["memories"], text
        assert _mcp(system, f"g{i}", {"messages": [{"role": "user", "content": text}]}) is not None
        assert system.scope("acme", f"g{i}").list(statuses=["active", "provisional"]), text
        assert _mcp(system, f"h{i}", {"text": text, "infer": False}) is None


def test_mcp_sources_follow_who_wrote_the_text(system):
    said = "I always want an aisle seat on long flights."
    _mcp(system, "own", {"messages": [{"role": "user", "content": said}]})
    _mcp(system, "relayed", {"text": said})
    _mcp(system, "given", {"text": "Alice wants aisle seats", "infer": False})
    own = system.scope("acme", "own").list(statuses=["active", "provisional"])
    relayed = system.scope("acme", "relayed").list(statuses=["active", "provisional"])
    given = system.scope("acme", "given").list(statuses=["active", "provisional"])
    assert own and all(m.source.value == "user_said" for m in own)
    assert relayed and all(m.source.value == "inferred" and m.confidence <= 0.45 and m.kind is not Kind.PROCEDURE for m in relayed)
    assert [(m.source.value, m.confidence) for m in given] == [("inferred", 0.45)]
