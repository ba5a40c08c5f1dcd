"""The rules decider, importable from ``kenning.llms`` beside the LLM one; it lives in ``kenning.lifecycle.rules``."""

from kenning.lifecycle.rules import RulesDecider

__all__ = ["RulesDecider"]
