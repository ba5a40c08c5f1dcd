"""Structured logs: one JSON object per line, never memory content.

Records carry extra key/values under ``extra={"fields": {...}}``; request
logs name method, route template, status, duration, tenant and a request id.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone


class JSONFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", ...fields}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "ts": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        data.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


def configure(level: str = "INFO", stream=None) -> None:
    """Send logs as JSON lines to ``stream`` (stderr). Called by entry points only."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JSONFormatter())
    # The root logger too, so uvicorn's and the MCP SDK's records come out as JSON lines
    # (and the SDK's own basicConfig finds a handler and leaves logging alone).
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("kenning").setLevel(level.upper())
