"""Fuzz every operation of the OpenAPI schema (bounded): no input may produce a 5xx.

Requests carry a valid tenant key, so generated inputs reach the routes
rather than stopping at authentication. Bounded to a few examples per
operation so the suite stays fast; raise ``KENNING_FUZZ_EXAMPLES`` locally
for a longer run.
"""

from __future__ import annotations

import os

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
