"""OpenAI-compatible chat completions through the official ``openai`` SDK.

One code path for every server that speaks this protocol: OpenAI itself (no base URL),
vLLM (``http://HOST:8000/v1``), Ollama (``http://localhost:11434/v1``), llama.cpp server,
LM Studio, OpenRouter, and Gemini's compatible endpoint
(``https://generativelanguage.googleapis.com/v1beta/openai/``).
"""

from __future__ import annotations

from typing import Any

from ggp.llm.base import (
    Backend,
    Completion,
    LLMError,
    LLMResponseError,
    Message,
    SamplingParams,
    Usage,
    api_key_from_env,
    import_sdk,
    is_scripted_model,
    translate_sdk_error,
)

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


class OpenAIBackend(Backend):
    """Chat completions at ``base_url`` (default: api.openai.com).

    The API key is read from environment variable ``api_key_env``; it is required only
    when no ``base_url`` is given (local servers ignore keys). The SDK's own retries are
    disabled: :class:`~ggp.llm.client.LLMClient` retries, so every attempt is accounted.
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        timeout_s: float = 120.0,
    ):
        openai = import_sdk("openai", "llm")
        key = api_key_from_env(api_key_env or DEFAULT_KEY_ENV, required=base_url is None)
        self.model = model
        self.endpoint = base_url or "https://api.openai.com/v1"
        self._openai = openai
        self._client = openai.OpenAI(
            api_key=key or "unused-by-local-server",
            base_url=base_url,
            timeout=timeout_s,
            max_retries=0,
        )
        # The official API wants max_completion_tokens; most local servers know max_tokens.
        self._max_tokens_field = "max_completion_tokens" if base_url is None else "max_tokens"

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        try:
            response = self._client.chat.completions.create(**self._request(messages, params))
        except Exception as exc:  # the SDK's exception tree is translated in one place
            raise self._translate(exc) from exc
        return self._completion(response)

    def _request(self, messages: list[Message], params: SamplingParams) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        optional = {
            "temperature": params.temperature,
            self._max_tokens_field: params.max_tokens,
            "top_p": params.top_p,
            "seed": params.seed,
            "stop": list(params.stop) if params.stop else None,
        }
        request.update({k: v for k, v in optional.items() if v is not None})
        if params.extra:
            request["extra_body"] = dict(params.extra)
        return request

    def _completion(self, response: Any) -> Completion:
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
            usage = response.usage
            details = getattr(usage, "completion_tokens_details", None) if usage else None
            reported = getattr(response, "model", None) or self.model
            return Completion(
                text=text,
                usage=Usage(
                    prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
                    completion_tokens=(usage.completion_tokens or 0) if usage else 0,
                    reasoning_tokens=getattr(details, "reasoning_tokens", None),
                ),
                model=reported,
                backend=self.name,
                finish_reason=choice.finish_reason,
                scripted=is_scripted_model(reported),
            )
        except (AttributeError, IndexError, TypeError) as exc:
            raise LLMResponseError(
                f"{self.endpoint} returned a response without a chat completion: {response!r:.300}"
            ) from exc

    def _translate(self, exc: Exception) -> LLMError:
        return translate_sdk_error(self._openai, exc, endpoint=self.endpoint, model=self.model)

    def close(self) -> None:
        self._client.close()
