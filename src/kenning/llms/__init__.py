"""Reconciliation deciders: the offline rules engine (default) and an LLM over any OpenAI-compatible endpoint.

``build_decider(settings, llm)`` is what the composition root calls: an
explicit ``llm`` or a configured ``settings.llm_base_url`` gives the LLM
decider; otherwise the rules engine.
"""

from __future__ import annotations

from typing import Any

from kenning.llms.base import LLM, Decider
from kenning.llms.decider import LLMDecider
from kenning.llms.fake import ScriptedLLM
from kenning.llms.openai import OpenAIChat
from kenning.llms.rules import RulesDecider


def build_decider(settings: Any, llm: LLM | None = None) -> Decider:
    """The decider ``settings`` ask for; ``llm`` (if given) wins over ``settings.llm_base_url``."""
    if llm is None and getattr(settings, "llm_base_url", None):
        llm = OpenAIChat(
            settings.llm_base_url,
            settings.llm_model or "",
            settings.llm_api_key,
            timeout_s=settings.llm_timeout_s,
        )
    if llm is not None:
        return LLMDecider(llm, retries=getattr(settings, "llm_retries", 1))
    return RulesDecider()


__all__ = ["LLM", "Decider", "RulesDecider", "LLMDecider", "OpenAIChat", "ScriptedLLM", "build_decider"]
