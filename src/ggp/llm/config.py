"""LLM configuration from a config file, environment variables and flags.

Precedence, lowest first: defaults < config file < environment < explicit arguments
(flags). The config file is TOML with an ``[llm]`` table (and ``[llm.prices]``); it is
the file given explicitly, else the one named by ``GGP_LLM_CONFIG``. Every field ``f``
below can be set by the environment variable ``GGP_LLM_<F>`` (upper case), e.g.
``GGP_LLM_MODEL``, ``GGP_LLM_BASE_URL``, ``GGP_LLM_CACHE_MODE``.

``backend`` may also name a preset of the OpenAI-compatible backend for a local server:
``ollama``, ``vllm`` or ``lmstudio`` mean ``openai`` with the server's usual address as
the default ``base_url`` (:data:`PRESETS`) and no key needed.

API keys are never part of the configuration: ``api_key_env`` names the environment
variable that holds the key (default per backend: ``OPENAI_API_KEY``,
``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``/``GOOGLE_API_KEY``). A config file that
contains a key is rejected.

Example ``ggp.toml``::

    [llm]
    backend = "openai"
    model = "qwen2.5-coder:7b"
    base_url = "http://localhost:11434/v1"
    cache_mode = "read-write"
    max_calls = 500

    [llm.prices]            # US$ per million input / output tokens
    "gpt-4o-mini" = [0.15, 0.60]
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ggp.llm.base import LLMConfigError

BACKENDS = ("openai", "anthropic", "google", "exchange")
# local OpenAI-compatible servers: preset name -> default base URL
PRESETS = {
    "ollama": "http://localhost:11434/v1",
    "vllm": "http://localhost:8000/v1",
    "lmstudio": "http://localhost:1234/v1",
}
BACKEND_CHOICES = BACKENDS[:3] + tuple(PRESETS) + BACKENDS[3:]

SETUP_HELP = (
    "No language model is set up. Choose one with --backend and --model (or GGP_LLM_BACKEND "
    "and GGP_LLM_MODEL, or a --config file; docs/llm.md): openai (key in OPENAI_API_KEY), "
    "anthropic (ANTHROPIC_API_KEY), google (GEMINI_API_KEY); ollama, vllm or lmstudio for a "
    "local server (no key; --base-url if it is not at its usual address); or exchange with "
    "--exchange-dir DIR to answer the prompts yourself as files. Without any model, replay "
    "a recorded run offline: ggp synth replay examples/recorded/leduc_poker")
_FORBIDDEN_KEYS = ("api_key", "key", "token", "secret", "password")


@dataclass(frozen=True)
class LLMConfig:
    """Everything needed to build an :class:`~ggp.llm.client.LLMClient`."""

    backend: str = "openai"  # or a preset name (PRESETS), stored as "openai" + preset
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    # default sampling parameters
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    # robustness
    timeout_s: float = 120.0
    max_retries: int = 5
    retry_base_delay_s: float = 1.0
    retry_max_delay_s: float = 60.0
    concurrency: int = 4
    # cache: mode "off" | "read-write" | "replay"; path defaults to <run_dir>/llm_cache.sqlite
    cache_mode: str = "off"
    cache_path: str | None = None
    # budget per run (None: unlimited) and prices (model -> [input, output] $ per 1M tokens)
    max_calls: int | None = None
    max_total_tokens: int | None = None
    max_cost: float | None = None
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    # file-exchange backend
    exchange_dir: str | None = None
    exchange_timeout_s: float | None = None
    # the preset the backend was named by (ollama, vllm, lmstudio), if any
    preset: str | None = None

    def __post_init__(self) -> None:
        name = self.backend.lower().replace("-", "").replace("_", "")
        if name in PRESETS:
            object.__setattr__(self, "preset", name)
            object.__setattr__(self, "backend", "openai")
            if not self.base_url:
                object.__setattr__(self, "base_url", PRESETS[name])
        if self.backend not in BACKENDS:
            raise LLMConfigError(f"Unknown LLM backend {self.backend!r}; choose one of "
                                 f"{', '.join(BACKEND_CHOICES)}.")
        if self.cache_mode not in ("off", "read-write", "replay"):
            raise LLMConfigError(
                f"Unknown cache mode {self.cache_mode!r}; choose 'off', 'read-write' or 'replay'."
            )

    def describe(self) -> dict[str, Any]:
        """The configuration as a dict (safe to print: it never holds a key)."""
        return dataclasses.asdict(self)


def load_config(
    config_file: str | Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    **overrides: Any,
) -> LLMConfig:
    """Build an :class:`LLMConfig` from file, environment and ``overrides`` (None ignored)."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = config_file or env.get("GGP_LLM_CONFIG")
    if path:
        values.update(_read_file(Path(path)))
    values.update(_read_env(env))
    values.update({k: v for k, v in overrides.items() if v is not None})
    unknown = set(values) - {f.name for f in fields(LLMConfig)}
    if unknown:
        raise LLMConfigError(f"Unknown LLM setting(s): {', '.join(sorted(unknown))}.")
    return LLMConfig(**{k: _coerce(k, v) for k, v in values.items()})


def _read_file(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LLMConfigError(f"LLM config file {path} does not exist.") from None
    except tomllib.TOMLDecodeError as exc:
        raise LLMConfigError(f"LLM config file {path} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise LLMConfigError(f"LLM config file {path} is not UTF-8 text ({exc.reason} at "
                             f"byte {exc.start}).") from None
    for name in _secret_keys(data):  # anywhere in the file, never echoing the value
        raise LLMConfigError(
            f"{path} contains {name!r}. API keys are read only from environment "
            "variables: remove it and set api_key_env to the variable's name instead."
        )
    table = data.get("llm", {})
    if not isinstance(table, dict):
        raise LLMConfigError(f"In {path}, 'llm' must be a table ([llm]).")
    return dict(table)


def _secret_keys(table: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted names of the keys in ``table`` (and its subtables) that name a secret."""
    found = []
    for name, value in table.items():
        if name.lower() in _FORBIDDEN_KEYS:
            found.append(prefix + name)
        if isinstance(value, dict):
            found += _secret_keys(value, f"{prefix}{name}.")
    return found


def _read_env(env: Mapping[str, str]) -> dict[str, Any]:
    values = {}
    for f in fields(LLMConfig):
        name = f"GGP_LLM_{f.name.upper()}"
        if f.name != "prices" and env.get(name, "") != "":
            values[f.name] = env[name]
    return values


_INTS = {"max_tokens", "seed", "max_retries", "concurrency", "max_calls", "max_total_tokens"}
_FLOATS = {
    "temperature",
    "timeout_s",
    "retry_base_delay_s",
    "retry_max_delay_s",
    "max_cost",
    "exchange_timeout_s",
}


def _coerce(name: str, value: Any) -> Any:
    """Convert strings from the environment (and TOML numbers) to the field's type."""
    try:
        if name in _INTS:
            return int(value)
        if name in _FLOATS:
            return float(value)
        if name == "prices":
            return {str(m): (float(p[0]), float(p[1])) for m, p in dict(value).items()}
    except (TypeError, ValueError, IndexError, KeyError):
        # the value is not echoed: a misplaced secret must not end up in a log
        expected = ("a whole number" if name in _INTS else "a number" if name in _FLOATS
                    else "model = [input, output] US$ per million tokens")
        raise LLMConfigError(f"LLM setting {name} has an invalid value (expected "
                             f"{expected}).") from None
    return str(value)
