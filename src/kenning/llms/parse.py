"""Reading the LLM decider's answer: pure, and strict about what it accepts.

``parse_decision(raw, aliases)`` returns a ``Decision`` whose ``target_id``
is a real id mapped from the alias the model gave, or raises
``MalformedAnswer``. An alias the model invented maps to no id; the
reconciliation guard then turns the UPDATE or DELETE into ADD.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from kenning.errors import LLMError
from kenning.types import Decision, Op

OPS = {"ADD": Op.ADD, "UPDATE": Op.UPDATE, "DELETE": Op.DELETE, "NOOP": Op.NOOP, "NONE": Op.NOOP}
INVENTED = "invented-target"
MAX_TEXT = 2000


class MalformedAnswer(LLMError):
    """The model's answer is not the JSON object asked for."""


def _json_object(raw: str) -> dict:
    text = raw.strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.S)
    if fenced:
        text = fenced.group(1)
    elif not text.startswith("{"):
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            raise MalformedAnswer("no JSON object in the answer")
        text = text[start : end + 1]
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise MalformedAnswer(f"answer is not valid JSON: {exc.__class__.__name__}") from None
    if not isinstance(obj, dict):
        raise MalformedAnswer("answer is not a JSON object")
    return obj


def parse_decision(raw: str, aliases: Mapping[int, str]) -> Decision:
    """The decision in ``raw``; ``aliases`` maps the numbers shown to the model to real ids."""
    if not isinstance(raw, str):
        raise MalformedAnswer("answer is not text")
    obj = _json_object(raw)
    op = OPS.get(str(obj.get("op", obj.get("operation", ""))).strip().upper())
    if op is None:
        raise MalformedAnswer("answer has no valid op")
    target = obj.get("target", obj.get("target_id"))
    target_id = None
    if op in (Op.UPDATE, Op.DELETE, Op.NOOP) and target not in (None, "", "null"):
        try:
            alias = int(str(target).strip().lstrip("#"))
        except ValueError:
            alias = None
        target_id = aliases.get(alias) if alias is not None else None
        if target_id is None:
            target_id = INVENTED if op is not Op.NOOP else None
    if op in (Op.UPDATE, Op.DELETE) and target_id is None:
        raise MalformedAnswer(f"{op.value} without a target")
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        text = None
    return Decision(op, target_id, text, "llm")
