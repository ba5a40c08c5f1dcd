"""Reconciliation deciders and the LLM extractor, over any OpenAI-compatible endpoint.

``build_decider(settings, llm)`` and ``build_extractor(settings, llm)`` are
what the composition root calls: an explicit ``llm`` or a configured
``settings.llm_base_url`` gives the LLM decider and (unless
``settings.llm_extract`` is off) the LLM extractor; otherwise the rules
engine decides and the offline engine extracts.
"""

from __future__ import annotations

from typing import Any

from kenning.llms.base import LLM, Decider
from kenning.llms.decider import LLMDecider
from kenning.llms.extract import LLMExtractor
from kenning.llms.fake import ScriptedLLM
from kenning.llms.openai import OpenAIChat
from kenning.llms.rules import RulesDecider


def build_llm(settings: Any) -> LLM | None:
    """An OpenAI-compatible client for ``settings.llm_base_url``, or None when none is configured."""
    if not getattr(settings, "llm_base_url", None):
        return None
    return OpenAIChat(settings.llm_base_url, settings.llm_model or "", settings.llm_api_key, timeout_s=settings.llm_timeout_s)


def build_decider(settings: Any, llm: LLM | None = None) -> Decider:
    """The decider ``settings`` ask for; ``llm`` (if given) wins over ``settings.llm_base_url``."""
    if llm is None:
        llm = build_llm(settings)
    if llm is not None:
        return LLMDecider(llm, retries=getattr(settings, "llm_retries", 1))
    return RulesDecider()


def build_extractor(settings: Any, llm: LLM | None = None) -> LLMExtractor | None:
    """The LLM extractor when an LLM is given or configured and ``settings.llm_extract`` is on; else None (offline)."""
    if not getattr(settings, "llm_extract", True):
        return None
    if llm is None:
        llm = build_llm(settings)
    if llm is None:
        return None
    return LLMExtractor(llm, retries=getattr(settings, "llm_retries", 1), prompt=getattr(settings, "llm_extract_prompt", None))


__all__ = [
    "LLM",
    "Decider",
    "RulesDecider",
    "LLMDecider",
    "LLMExtractor",
    "OpenAIChat",
    "ScriptedLLM",
    "build_llm",
    "build_decider",
    "build_extractor",
]
