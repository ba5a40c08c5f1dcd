"""An OpenAI-compatible chat client over httpx (OpenAI, Ollama, vLLM, llama.cpp, LM Studio…)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

import httpx

from kenning.errors import ConfigError, LLMError


@dataclass
class Usage:
    """Tokens an endpoint reported in its responses' ``usage`` (calls without one count in ``calls`` only)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0


class OpenAIChat:
    """POSTs ``{base_url}/chat/completions``; temperature 0; asks for a JSON object when ``json=True``.

    Every transport failure, timeout, non-2xx status or unexpected body
    becomes ``LLMError``; the API key is never part of an error message.
    ``usage`` adds up the prompt and completion tokens of every answered call.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout_s: float = 20.0,
        client: httpx.Client | None = None,
        json_mode: bool = True,
    ) -> None:
        if not base_url or not model:
            raise ConfigError("an OpenAI-compatible LLM needs llm_base_url and llm_model")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.json_mode = json_mode
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=httpx.Timeout(timeout_s), headers=headers)
        self._owns_client = client is None
        self.usage = Usage()
        self._usage_lock = Lock()

    def chat(self, messages: Sequence[dict[str, str]], *, json: bool = True) -> str:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": 0}
        if json and self.json_mode:
            body["response_format"] = {"type": "json_object"}
        try:
            resp = self._client.post(self.url, json=body)
        except httpx.TimeoutException:
            raise LLMError("LLM request timed out") from None
        except httpx.HTTPError as exc:
            raise LLMError(f"LLM request failed: {exc.__class__.__name__}") from None
        if resp.status_code == 400 and "response_format" in body:
            # some servers reject response_format; ask once more without it, and stop asking for it
            self.json_mode = False
            return self.chat(messages, json=False)
        if resp.status_code >= 400:
            raise LLMError(f"LLM endpoint answered HTTP {resp.status_code}")
        try:
            data = resp.json()
            content = str(data["choices"][0]["message"]["content"])
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError("LLM endpoint answered with an unexpected body") from None
        self._count(data.get("usage"))
        return content

    def _count(self, usage: Any) -> None:
        def tokens(key: str) -> int:
            v = usage.get(key) if isinstance(usage, dict) else None
            return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0

        with self._usage_lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += tokens("prompt_tokens")
            self.usage.completion_tokens += tokens("completion_tokens")

    def close(self) -> None:
        if self._owns_client:
            self._client.close()
