"""The LLM layer: one ``complete(messages, ...)`` interface for every language model.

* :class:`LLMClient` (``client.complete(messages)`` -> :class:`Completion`) wraps a backend
  with retries, a replayable SQLite response cache, budgets and a JSONL call log;
* backends: OpenAI-compatible (``openai`` SDK with a base URL), Anthropic, Google
  (``google-genai``), file exchange (prompt files out, response files in);
* fakes for tests: :class:`ScriptedLLM` (in process) and
  :class:`~ggp.llm.fake_server.ScriptedServer` (real wire protocols on 127.0.0.1).

SDKs are imported only when their backend is built, so ``import ggp.llm`` needs none.
See docs/llm.md.
"""

from ggp.llm.accounting import Accounting, Budget, Price
from ggp.llm.base import (
    LLM,
    Backend,
    BudgetExceededError,
    CacheMissError,
    Completion,
    LLMAuthError,
    LLMConfigError,
    LLMConnectionError,
    LLMError,
    LLMModelNotFoundError,
    LLMRateLimitError,
    LLMRequestError,
    LLMResponseError,
    LLMServerError,
    LLMTimeoutError,
    Message,
    SamplingParams,
    ScriptExhaustedError,
    Usage,
)
from ggp.llm.cache import ResponseCache
from ggp.llm.client import LLMClient, RetryPolicy
from ggp.llm.config import LLMConfig, load_config
from ggp.llm.factory import make_backend, make_client
from ggp.llm.scripted import ScriptedLLM

__all__ = [
    "LLM",
    "Accounting",
    "Backend",
    "Budget",
    "BudgetExceededError",
    "CacheMissError",
    "Completion",
    "LLMAuthError",
    "LLMClient",
    "LLMConfig",
    "LLMConfigError",
    "LLMConnectionError",
    "LLMError",
    "LLMModelNotFoundError",
    "LLMRateLimitError",
    "LLMRequestError",
    "LLMResponseError",
    "LLMServerError",
    "LLMTimeoutError",
    "Message",
    "Price",
    "ResponseCache",
    "RetryPolicy",
    "SamplingParams",
    "ScriptExhaustedError",
    "ScriptedLLM",
    "Usage",
    "load_config",
    "make_backend",
    "make_client",
]
