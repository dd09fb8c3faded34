"""Build backends and clients from an :class:`~ggp.llm.config.LLMConfig`."""

from __future__ import annotations

from pathlib import Path

from ggp.llm.accounting import CALL_LOG_NAME, Accounting, Budget, Price
from ggp.llm.base import Backend, LLMConfigError, SamplingParams
from ggp.llm.cache import ResponseCache
from ggp.llm.client import LLMClient, RetryPolicy
from ggp.llm.config import SETUP_HELP, LLMConfig

CACHE_NAME = "llm_cache.sqlite"


def make_backend(config: LLMConfig) -> Backend:
    """The backend named by ``config.backend`` (SDKs are imported only here, lazily)."""
    if config.backend == "exchange":
        from ggp.llm.exchange import ExchangeBackend

        if not config.exchange_dir:
            raise LLMConfigError("The exchange backend needs a folder (exchange_dir): pass "
                                 "--exchange-dir DIR or set GGP_LLM_EXCHANGE_DIR.")
        return ExchangeBackend(
            config.exchange_dir,
            model=config.model or "exchange",
            timeout_s=config.exchange_timeout_s,
        )
    if not config.model:
        raise LLMConfigError(SETUP_HELP)
    options = dict(
        base_url=config.base_url, api_key_env=config.api_key_env, timeout_s=config.timeout_s
    )
    if config.backend == "openai":
        from ggp.llm.openai_backend import OpenAIBackend

        return OpenAIBackend(config.model, **options)
    if config.backend == "anthropic":
        from ggp.llm.anthropic_backend import AnthropicBackend

        return AnthropicBackend(config.model, **options)
    from ggp.llm.google_backend import GoogleBackend

    return GoogleBackend(config.model, **options)


def make_client(
    config: LLMConfig, run_dir: str | Path | None = None, backend: Backend | None = None
) -> LLMClient:
    """A ready client: backend, cache, budget and call log as configured.

    The call log goes to ``<run_dir>/llm_calls.jsonl`` and the cache, unless
    ``config.cache_path`` says otherwise, to ``<run_dir>/llm_cache.sqlite``. ``backend``
    replaces the configured one (e.g. a :class:`~ggp.llm.scripted.ScriptedLLM` in tests).
    """
    run_path = Path(run_dir) if run_dir is not None else None
    backend = backend or make_backend(config)
    cache = None
    if config.cache_mode != "off":
        if config.cache_path is None and run_path is None:
            raise LLMConfigError("The response cache needs cache_path or a run directory.")
        cache = ResponseCache(config.cache_path or run_path / CACHE_NAME, config.cache_mode)
    price_pair = config.prices.get(backend.model)
    accounting = Accounting(
        Budget(config.max_calls, config.max_total_tokens, config.max_cost),
        Price(*price_pair) if price_pair else None,
        run_path / CALL_LOG_NAME if run_path is not None else None,
    )
    return LLMClient(
        backend,
        defaults=SamplingParams(
            temperature=config.temperature, max_tokens=config.max_tokens, seed=config.seed
        ),
        cache=cache,
        accounting=accounting,
        retry=RetryPolicy(config.max_retries, config.retry_base_delay_s, config.retry_max_delay_s),
        concurrency=config.concurrency,
    )
