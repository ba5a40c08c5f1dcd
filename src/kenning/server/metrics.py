"""Prometheus metrics: request latency, memories per operation, background job results.

Each app owns its registry, so several apps in one process (tests) never
collide; ``/metrics`` serves that registry in the text exposition format.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["Metrics", "CONTENT_TYPE_LATEST"]


class Metrics:
    """The server's instruments. Labels are bounded: route templates, never raw paths or ids."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "kenning_http_request_duration_seconds", "HTTP request latency by route template",
            ["method", "route", "status"], registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )
        self.memories = Counter(
            "kenning_memories_total", "Memories touched, by operation", ["op"], registry=self.registry,
        )
        self.jobs = Counter(
            "kenning_maintenance_runs_total", "Maintenance runs by result", ["result"], registry=self.registry,
        )
        self.mcp_calls = Counter(
            "kenning_mcp_tool_calls_total", "MCP tool calls by tool and result", ["tool", "result"], registry=self.registry,
        )

    def count(self, op: str, n: int = 1) -> None:
        if n:
            self.memories.labels(op).inc(n)

    def render(self) -> bytes:
        return generate_latest(self.registry)
