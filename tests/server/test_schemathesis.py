"""Fuzz every operation of the OpenAPI schema (bounded): no input may produce a 5xx.

Requests carry a valid tenant key, so generated inputs reach the routes
rather than stopping at authentication. Bounded to a few examples per
operation so the suite stays fast; raise ``KENNING_FUZZ_EXAMPLES`` locally
for a longer run.
"""

from __future__ import annotations

import json
import os
from urllib.parse import quote

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error

import kenning
from kenning.embedders import HashEmbedder
from kenning.server import create_app

EXAMPLES = int(os.environ.get("KENNING_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    system = kenning.open(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'k.db'}", embedder=HashEmbedder())
    _, raw = system.create_api_key("acme", "fuzz")
    mem = system.scope("acme", "alice")
    mem.remember("Alice is allergic to peanuts")
    app = create_app(system=system, mcp=False)
    yield app, {"Authorization": f"Bearer {raw}"}
    system.close()


@pytest.fixture(scope="module")
def api_schema(fuzzed):
    app, _ = fuzzed
    return schemathesis.openapi.from_asgi("/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
# No shrink phase: a failure is reported at once with its reproduction, so the run stays bounded even when red.
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate])
def test_no_input_produces_a_server_error(case, fuzzed):
    app, auth = fuzzed
    case.call_and_validate(headers=auth, checks=[not_a_server_error])


# Values that once produced a 5xx somewhere (issue 11): lone surrogates, NUL, times past the last UTC
# instant, numbers no engine stores. Every string, time and number field of each generated body is
# replaced by each of them in turn.
NASTY_STRINGS = ["\ud800", "\udc00", "a\x00b", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"]
NASTY_NUMBERS = [10**30, -(10**30), 1e308]


def _poisoned(body, value):
    if isinstance(body, dict):
        return {k: _poisoned(v, value) for k, v in body.items()}
    if isinstance(body, list):
        return [_poisoned(v, value) for v in body] or [value]
    if isinstance(body, str):
        return value if isinstance(value, str) else body
    if isinstance(body, (int, float)) and not isinstance(body, bool):
        return value if not isinstance(value, str) else body
    return body


@schema.parametrize()
@settings(max_examples=max(3, EXAMPLES // 5), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          database=None, phases=[Phase.explicit, Phase.generate])
def test_poisoned_bodies_never_produce_a_server_error(case, fuzzed):
    from fastapi.testclient import TestClient

    app, auth = fuzzed
    body = getattr(case, "body", None)
    if not isinstance(body, (dict, list)):
        return
    path = case.operation.path.format(**{k: quote(str(v), safe="") for k, v in (case.path_parameters or {}).items()})
    client = TestClient(app, raise_server_exceptions=False)
    for value in [*NASTY_STRINGS, *NASTY_NUMBERS]:
        # sent as JSON text with escapes (\ud800): a JSON parser turns them back into lone surrogates
        raw = json.dumps(_poisoned(body, value))
        r = client.request(case.method, path, content=raw, headers={**auth, "Content-Type": "application/json"})
        assert r.status_code < 500, f"{case.method} {path} {raw[:300]} -> {r.status_code} {r.text[:300]}"
