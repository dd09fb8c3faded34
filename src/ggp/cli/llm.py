"""``ggp llm ...``: commands of the LLM layer (``ggp llm check``)."""

from __future__ import annotations

import dataclasses
import json

import typer
from rich.markup import escape

from ggp.cli.output import console
from ggp.llm import LLMError, load_config, make_client

llm_app = typer.Typer(
    help="Language-model backends: check the configured connection.", no_args_is_help=True
)

CHECK_PROMPT = "This is a connectivity check. Reply with the single word: ready"


@llm_app.command()
def check(
    backend: str = typer.Option(
        None, help="openai | anthropic | google | ollama | vllm | lmstudio | exchange "
        "(env GGP_LLM_BACKEND); ollama, vllm and lmstudio are local OpenAI-compatible "
        "servers at their usual address."
    ),
    model: str = typer.Option(None, help="Model name (env GGP_LLM_MODEL)."),
    base_url: str = typer.Option(
        None, help="Endpoint, e.g. http://localhost:11434/v1 (env GGP_LLM_BASE_URL)."
    ),
    api_key_env: str = typer.Option(
        None, help="Name of the environment variable holding the API key."
    ),
    config: str = typer.Option(
        None, help="TOML config file with an 'llm' table (env GGP_LLM_CONFIG)."
    ),
    exchange_dir: str = typer.Option(
        None, help="Folder of the exchange backend (env GGP_LLM_EXCHANGE_DIR)."
    ),
    timeout: float = typer.Option(None, help="Seconds to wait for the answer."),
    retries: int = typer.Option(1, help="Retries on transient errors (rate limits, timeouts)."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Send one tiny request through the configured backend and report the result.

    Prints the model that answered, the latency and the token usage, or exactly what is
    wrong (unreachable endpoint, unknown model, missing key, ...). Exit status 1 on failure.
    """
    settings = load_config(
        config,
        backend=backend,
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        exchange_dir=exchange_dir,
        timeout_s=timeout,
        max_retries=retries,
        cache_mode="off",
    )
    report = {"backend": settings.backend, "preset": settings.preset, "model": settings.model,
              "base_url": settings.base_url}
    try:
        with make_client(settings) as client:
            answer = client.complete(CHECK_PROMPT)
    except LLMError as exc:
        report.update(ok=False, error=type(exc).__name__, message=str(exc))
        _show(report, json_out)
        raise typer.Exit(1) from None
    report.update(
        ok=True,
        reported_model=answer.model,
        latency_s=round(answer.latency_s, 3),
        usage=dataclasses.asdict(answer.usage) | {"total_tokens": answer.usage.total_tokens},
        finish_reason=answer.finish_reason,
        answer=answer.text[:200],
        scripted=answer.scripted,
    )
    _show(report, json_out)


def _show(report: dict, json_out: bool) -> None:
    if json_out:
        console.print_json(json.dumps(report))
        return
    where = report["base_url"] or "default endpoint"
    backend = (f"{report['preset']} (OpenAI-compatible)" if report.get("preset")
               else report["backend"])
    model = f"model {report['model']!r}" if report["model"] else "no model chosen"
    head = escape(f"{backend} backend, {model} at {where}")
    if not report["ok"]:
        problem = escape(f"{report['error']}: {report['message']}")
        console.print(f"[bold red]FAILED[/] {head}\n{problem}", highlight=False)
        return
    usage = report["usage"]
    label = "  [yellow](scripted fake, not a model)[/]" if report["scripted"] else ""
    lines = [
        f"[bold green]OK[/] {head}",
        f"  answered by: {escape(report['reported_model'])}{label}",
        f"  latency:     {report['latency_s']:.3f} s",
        f"  tokens:      {usage['prompt_tokens']} prompt + {usage['completion_tokens']} "
        f"completion = {usage['total_tokens']}",
        f"  answer:      {escape(repr(report['answer']))} "
        f"(finish reason: {escape(str(report['finish_reason']))})",
    ]
    console.print("\n".join(lines), highlight=False)


def register(app: typer.Typer) -> None:
    app.add_typer(llm_app, name="llm")
