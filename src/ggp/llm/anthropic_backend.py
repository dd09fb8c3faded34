"""Anthropic's Messages API through the official ``anthropic`` SDK."""

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

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
# The Messages API requires max_tokens; this is used when a request does not set it.
DEFAULT_MAX_TOKENS = 4096


class AnthropicBackend(Backend):
    """Claude models. System messages are joined into the request's ``system`` field.

    ``extra`` sampling parameters are passed as extra body fields (e.g.
    ``{"thinking": {"type": "enabled", "budget_tokens": 2048}}``).
    """

    name = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        timeout_s: float = 120.0,
    ):
        anthropic = import_sdk("anthropic", "llm")
        key = api_key_from_env(api_key_env or DEFAULT_KEY_ENV, required=base_url is None)
        self.model = model
        self.endpoint = base_url or "https://api.anthropic.com"
        self._anthropic = anthropic
        self._client = anthropic.Anthropic(
            api_key=key or "unused-by-local-server",
            base_url=base_url,
            timeout=timeout_s,
            max_retries=0,
        )

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        try:
            response = self._client.messages.create(**self._request(messages, params))
        except Exception as exc:
            raise self._translate(exc) from exc
        return self._completion(response)

    def _request(self, messages: list[Message], params: SamplingParams) -> dict[str, Any]:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        chat = [m for m in messages if m["role"] != "system"]
        request: dict[str, Any] = {
            "model": self.model,
            "messages": chat,
            "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
        }
        if system:
            request["system"] = system
        if params.stop:
            request["stop_sequences"] = list(params.stop)
        # Recent SDKs no longer declare temperature/top_p (some models reject them), so
        # they travel as plain body fields; the Messages API has no seed parameter.
        sampling = {"temperature": params.temperature, "top_p": params.top_p}
        extra_body = {k: v for k, v in sampling.items() if v is not None} | dict(params.extra)
        if extra_body:
            request["extra_body"] = extra_body
        return request

    def _completion(self, response: Any) -> Completion:
        try:
            text = "".join(
                block.text for block in response.content if getattr(block, "type", "") == "text"
            )
            reported = getattr(response, "model", None) or self.model
            return Completion(
                text=text,
                usage=Usage(response.usage.input_tokens or 0, response.usage.output_tokens or 0),
                model=reported,
                backend=self.name,
                finish_reason=response.stop_reason,
                scripted=is_scripted_model(reported),
            )
        except (AttributeError, TypeError) as exc:
            raise LLMResponseError(
                f"{self.endpoint} returned a response without a message: {response!r:.300}"
            ) from exc

    def _translate(self, exc: Exception) -> LLMError:
        return translate_sdk_error(self._anthropic, exc, endpoint=self.endpoint, model=self.model)

    def close(self) -> None:
        self._client.close()
