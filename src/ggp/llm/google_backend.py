"""Gemini through Google's ``google-genai`` SDK (the ``google`` extra).

Gemini is also reachable through the OpenAI-compatible backend; this native backend
exists for options only the native API has (e.g. ``thinking_config``, passed through
``extra``).
"""

from __future__ import annotations

import json
import os
from typing import Any

from ggp.llm.base import (
    Backend,
    Completion,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
    LLMTimeoutError,
    Message,
    SamplingParams,
    Usage,
    api_key_from_env,
    error_for_status,
    import_sdk,
    is_instance_named,
    is_scripted_model,
)

DEFAULT_KEY_ENVS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")


class GoogleBackend(Backend):
    """Gemini ``generateContent``. ``extra`` fields go into ``GenerateContentConfig``."""

    name = "google"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        timeout_s: float = 120.0,
    ):
        genai = import_sdk("google.genai", "google")
        self._types = import_sdk("google.genai.types", "google")
        self._errors = import_sdk("google.genai.errors", "google")
        variable = api_key_env or next(
            (v for v in DEFAULT_KEY_ENVS if os.environ.get(v)), DEFAULT_KEY_ENVS[0]
        )
        key = api_key_from_env(variable, required=base_url is None)
        self.model = model
        self.endpoint = base_url or "https://generativelanguage.googleapis.com"
        http_options = self._types.HttpOptions(
            base_url=base_url,
            timeout=int(timeout_s * 1000),  # milliseconds
        )
        self._client = genai.Client(
            api_key=key or "unused-by-local-server", http_options=http_options
        )

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        contents = [
            {
                "role": "model" if m["role"] == "assistant" else "user",
                "parts": [{"text": m["content"]}],
            }
            for m in messages
            if m["role"] != "system"
        ]
        config = {
            "system_instruction": system or None,
            "temperature": params.temperature,
            "max_output_tokens": params.max_tokens,
            "top_p": params.top_p,
            "seed": params.seed,
            "stop_sequences": list(params.stop) if params.stop else None,
            **params.extra,
        }
        try:
            response = self._client.models.generate_content(
                model=self.model,
                contents=contents,
                config=self._types.GenerateContentConfig(
                    **{k: v for k, v in config.items() if v is not None}
                ),
            )
        except Exception as exc:
            raise self._translate(exc) from exc
        return self._completion(response)

    def _completion(self, response: Any) -> Completion:
        try:
            candidate = response.candidates[0]
            parts = (candidate.content.parts or []) if candidate.content else []
            # Thought summaries are not part of the answer.
            text = "".join(p.text for p in parts if p.text and not getattr(p, "thought", False))
            meta = response.usage_metadata
            reported = response.model_version or self.model
            finish = candidate.finish_reason
            return Completion(
                text=text,
                usage=Usage(
                    prompt_tokens=(meta.prompt_token_count or 0) if meta else 0,
                    completion_tokens=(meta.candidates_token_count or 0) if meta else 0,
                    reasoning_tokens=getattr(meta, "thoughts_token_count", None) if meta else None,
                ),
                model=reported,
                backend=self.name,
                finish_reason=getattr(finish, "value", finish),
                scripted=is_scripted_model(reported),
            )
        except (AttributeError, IndexError, TypeError) as exc:
            raise LLMResponseError(
                f"{self.endpoint} returned a response without a candidate: {response!r:.300}"
            ) from exc

    def _translate(self, exc: Exception) -> LLMError:
        if isinstance(exc, self._errors.APIError):
            return error_for_status(
                int(exc.code or 0),
                str(exc.message or exc),
                model=self.model,
                endpoint=self.endpoint,
            )
        if is_instance_named(exc, "TimeoutException"):
            return LLMTimeoutError(f"{self.endpoint} did not answer in time.")
        if is_instance_named(exc, "TransportError", "NetworkError"):
            return LLMConnectionError(
                f"Cannot reach {self.endpoint}: {exc}. "
                "Is the server running, and is the base URL right?"
            )
        if isinstance(exc, (json.JSONDecodeError, self._errors.UnknownApiResponseError)):
            return LLMResponseError(f"{self.endpoint} sent a malformed response: {exc}")
        if isinstance(exc, LLMError):
            return exc
        return LLMError(f"Unexpected failure talking to {self.endpoint}: {exc!r}")
