"""The one interface every part of ggp uses to talk to a language model.

A *backend* turns a list of chat messages plus sampling parameters into a
:class:`Completion` (text and token usage). Backends do one thing: a single request.
Retries, caching, budgets and the audit log live in :class:`ggp.llm.client.LLMClient`,
which wraps any backend and exposes the same ``complete(messages, ...)`` method.

Messages are plain dicts ``{"role": "system" | "user" | "assistant", "content": str}``.
"""

from __future__ import annotations

import abc
import json
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from ggp.core.errors import GGPError

Message = dict[str, str]
ROLES = ("system", "user", "assistant")


# --------------------------------------------------------------------------- errors


class LLMError(GGPError):
    """Base class of every error of the LLM layer.

    ``transient`` errors (rate limits, timeouts, unreachable or overloaded servers,
    garbled responses) are retried by :class:`~ggp.llm.client.LLMClient`; the others are
    raised at once.
    """

    transient = False


class LLMConfigError(LLMError):
    """The configuration is unusable: unknown backend, missing model, key or SDK."""


class LLMConnectionError(LLMError):
    """The endpoint could not be reached."""

    transient = True


class LLMTimeoutError(LLMError):
    """The request did not complete within the configured timeout."""

    transient = True


class LLMRateLimitError(LLMError):
    """The provider asked us to slow down (HTTP 429). ``retry_after`` in seconds if given."""

    transient = True

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMServerError(LLMError):
    """The provider failed (HTTP 5xx or overloaded)."""

    transient = True


class LLMResponseError(LLMError):
    """The response could not be understood (malformed JSON, missing fields)."""

    transient = True


class LLMModelNotFoundError(LLMError):
    """The endpoint does not know the requested model name."""


class LLMAuthError(LLMError):
    """The endpoint refused our credentials (HTTP 401/403)."""


class LLMRequestError(LLMError):
    """The endpoint rejected the request itself (HTTP 400/422, ...)."""


class BudgetExceededError(LLMError):
    """A per-run budget (calls, tokens or cost) is used up; no further call is made."""


class CacheMissError(LLMError):
    """Replay-only cache mode and this request was not recorded."""


class ScriptExhaustedError(LLMError):
    """A scripted fake was asked for more responses than its script holds."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class SamplingParams:
    """Sampling parameters of a request. ``None`` means "the backend's default".

    ``extra`` is passed to the backend unchanged (e.g. ``{"reasoning_effort": "low"}`` for
    an OpenAI-compatible server); it is part of the cache key like everything else here.
    """

    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    seed: int | None = None
    stop: tuple[str, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["stop"] = list(self.stop) if self.stop is not None else None
        return data


@dataclass(frozen=True)
class Usage:
    """Token counts of one completion (0 where a backend cannot tell)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class Completion:
    """The answer to one request.

    ``model`` is the model name the endpoint reported; ``backend`` the backend that made
    it. ``scripted`` is True for every answer produced by a fake (never a model's work);
    ``cached`` is True when it was replayed from the response cache.
    """

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    backend: str = ""
    finish_reason: str | None = None
    latency_s: float = 0.0
    cached: bool = False
    scripted: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["usage"]["total_tokens"] = self.usage.total_tokens
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Completion:
        usage = dict(data.get("usage") or {})
        usage.pop("total_tokens", None)
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        fields["usage"] = Usage(**usage)
        return cls(**fields)


def normalize_messages(messages: str | list[Message]) -> list[Message]:
    """Check ``messages`` and return them as a fresh list; a string is one user message."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    if not messages:
        raise LLMRequestError("A request needs at least one message.")
    out = []
    for i, message in enumerate(messages):
        role, content = message.get("role"), message.get("content")
        if role not in ROLES or not isinstance(content, str):
            raise LLMRequestError(
                f"Message {i} must be {{'role': one of {ROLES}, 'content': str}}, got {message!r}."
            )
        out.append({"role": role, "content": content})
    return out


# --------------------------------------------------------------------------- interfaces


class LLM(Protocol):
    """Anything that answers chat messages: :class:`LLMClient`, a backend, a fake."""

    def complete(self, messages: str | list[Message], **params: Any) -> Completion: ...


class Backend(abc.ABC):
    """One way of sending a single request to a model.

    Subclasses implement :meth:`generate` and raise :class:`LLMError` subclasses (with
    ``transient`` set correctly) instead of SDK exceptions. ``name`` identifies the
    backend in the cache key and the call log.
    """

    name: str = "backend"
    model: str = ""

    @abc.abstractmethod
    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        """Send one request and return its completion (no retries, no cache)."""

    def complete(self, messages: str | list[Message], **params: Any) -> Completion:
        """Bare call without retries, cache or budget; :class:`LLMClient` adds those."""
        start = time.monotonic()
        completion = self.generate(normalize_messages(messages), SamplingParams(**params))
        return replace(completion, latency_s=time.monotonic() - start)

    def close(self) -> None:
        """Release network resources (default: nothing to release)."""


# --------------------------------------------------------------------------- helpers for backends


def error_for_status(
    status: int, detail: str, *, model: str, endpoint: str, retry_after: float | None = None
) -> LLMError:
    """The :class:`LLMError` for an HTTP error ``status`` returned by ``endpoint``."""
    where = f"{endpoint} answered HTTP {status}: {detail}"
    if status == 404:
        return LLMModelNotFoundError(
            f"Model {model!r} was not found. {where}\n"
            "Check the model name (--model) and that it is served at this endpoint; a 404 can "
            "also mean a wrong base URL (OpenAI-compatible servers usually end in /v1)."
        )
    if status in (401, 403):
        return LLMAuthError(f"The endpoint refused the credentials. {where}")
    if status == 429:
        return LLMRateLimitError(f"Rate limited. {where}", retry_after=retry_after)
    if status == 408:
        return LLMTimeoutError(where)
    if status >= 500:
        return LLMServerError(where)
    return LLMRequestError(where)


def retry_after_seconds(headers: Any) -> float | None:
    """The ``Retry-After`` header in seconds, if present and numeric."""
    try:
        value = headers.get("retry-after") if headers is not None else None
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):
        return None


def is_instance_named(exc: BaseException, *names: str) -> bool:
    """Whether ``exc`` has a class called one of ``names`` in its MRO.

    Used for transport exceptions of whichever HTTP library an SDK ships with (``httpx``
    or its successors), without importing that library.
    """
    return any(cls.__name__ in names for cls in type(exc).__mro__)


def import_sdk(module: str, extra: str) -> Any:
    """Import an optional SDK, or explain which extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise LLMConfigError(
            f"This backend needs the Python package {module!r}: pip install 'ggp[{extra}]'"
        ) from exc


def api_key_from_env(variable: str, *, required: bool) -> str | None:
    """The API key held in environment variable ``variable`` (keys never come from files)."""
    import os

    key = os.environ.get(variable) or None
    if key is None and required:
        raise LLMConfigError(
            f"No API key: set the environment variable {variable} (or name another one "
            "in GGP_LLM_API_KEY_ENV, or with --api-key-env in 'ggp synth run' and 'ggp llm "
            "check'). A local server (--backend ollama, vllm or lmstudio) needs no key."
        )
    return key


def is_scripted_model(model: str) -> bool:
    """Fakes report models as ``scripted:<name>``; used to label their output."""
    return model.startswith("scripted")


def error_detail(exc: Any) -> str:
    """The human-readable message inside an SDK status error's JSON body."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
    return str(getattr(exc, "message", exc))


def translate_sdk_error(sdk: Any, exc: Exception, *, endpoint: str, model: str) -> "LLMError":
    """Map an exception from a Stainless-generated SDK (``openai``, ``anthropic``: both
    define the same error classes) to ggp's LLM error types."""
    if isinstance(exc, sdk.APITimeoutError):
        return LLMTimeoutError(f"{endpoint} did not answer in time ({exc}).")
    if isinstance(exc, sdk.APIConnectionError):
        return LLMConnectionError(
            f"Cannot reach {endpoint}: {exc.__cause__ or exc}. "
            "Is the server running, and is the base URL right?"
        )
    if isinstance(exc, sdk.APIStatusError):
        return error_for_status(
            exc.status_code,
            error_detail(exc),
            model=model,
            endpoint=endpoint,
            retry_after=retry_after_seconds(exc.response.headers),
        )
    if isinstance(exc, (json.JSONDecodeError, sdk.APIResponseValidationError)):
        return LLMResponseError(f"{endpoint} sent a malformed response: {exc}")
    if isinstance(exc, LLMError):
        return exc
    return LLMError(f"Unexpected failure talking to {endpoint}: {exc!r}")
