"""The report of a suite run: ``report.md``, ``report.json``, ``report.csv`` and one
summary plot (``summary.png``, when matplotlib is installed)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

#: The CSV columns, in order (nested fields flattened).
COLUMNS = ("game", "tags", "status", "solved", "one_call", "calls", "tokens", "time_s",
           "train_accuracy", "test_accuracy", "transition_accuracy", "terminal_accuracy",
           "inference_accuracy", "behaviour_accuracy", "vs_random_payoff", "vs_gt_payoff",
           "play_time", "cwm_sims_per_move", "gt_sims_per_move", "first_failing_kind",
           "first_failing_test", "scripted_answers", "error")


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    play = row.get("play") or {}
    failure = row.get("first_train_failure") or row.get("first_test_failure") or {}
    return {"game": row["game"], "tags": " ".join(row.get("tags", [])),
            "status": row.get("status"), "solved": row.get("solved"),
            "one_call": row.get("one_call"), "calls": row.get("calls"),
            "tokens": row.get("tokens"), "time_s": row.get("time_s"),
            "train_accuracy": row.get("train_accuracy"),
            "test_accuracy": row.get("test_accuracy"),
            "transition_accuracy": row.get("transition_accuracy"),
            "terminal_accuracy": row.get("terminal_accuracy"),
            "inference_accuracy": row.get("inference_accuracy"),
            "behaviour_accuracy": (row.get("behaviour") or {}).get("accuracy"),
            "vs_random_payoff": (play.get("random") or {}).get("payoff"),
            "vs_gt_payoff": (play.get("gt") or {}).get("payoff"),
            "play_time": play.get("time"),
            # both sides of the CWM-vs-GT matches: the same time, different speeds
            "cwm_sims_per_move": (play.get("gt") or {}).get("sims_per_move_us"),
            "gt_sims_per_move": (play.get("gt") or {}).get("sims_per_move_them"),
            "first_failing_kind": failure.get("kind"), "first_failing_test": failure.get("id"),
            "scripted_answers": row.get("scripted_answers"), "error": row.get("error")}


def _f(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _sims(ours: Any, theirs: Any) -> str:
    if ours is None and theirs is None:
        return "-"
    return f"{_f(ours, 0)} : {_f(theirs, 0)}"


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Suite-level numbers: solve rates, mean calls, mean held-out accuracy."""
    ran = [r for r in rows if r.get("status") != "error"]
    accs = [r["test_accuracy"] for r in ran if r.get("test_accuracy") is not None]
    return {"games": len(rows), "errors": len(rows) - len(ran),
            "solved": sum(bool(r.get("solved")) for r in ran),
            "solved_in_one_call": sum(bool(r.get("one_call")) for r in ran),
            "one_call_rate": (sum(bool(r.get("one_call")) for r in ran) / len(ran)
                              if ran else None),
            "mean_calls": sum(r.get("calls", 0) for r in ran) / len(ran) if ran else None,
            "mean_test_accuracy": sum(accs) / len(accs) if accs else None,
            "scripted_games": sum(bool(r.get("scripted_answers")) for r in ran)}


def markdown(rows: list[dict[str, Any]], *, suite: str, settings: dict[str, Any],
             plot_note: str) -> str:
    s = summary(rows)
    lines = [f"# Benchmark `{suite}`: synthesis of {s['games']} games", ""]
    if s["scripted_games"]:
        lines += [f"**{s['scripted_games']} game(s) were answered by a scripted fake: not a "
                  "model's work.**", ""]
    lines += [f"Solved {s['solved']}/{s['games'] - s['errors']}, in one call "
              f"{s['solved_in_one_call']} (rate {_f(s['one_call_rate'])}); mean LLM calls "
              f"{_f(s['mean_calls'], 2)}; mean held-out accuracy "
              f"{_f(s['mean_test_accuracy'])}; errors {s['errors']}.",
              "", "Settings: " + ", ".join(f"{k} {v}" for k, v in settings.items()) + ".",
              "", plot_note, "",
              "| game | status | calls | tokens | time s | train | held-out | transition | "
              "terminal | inference | behaviour | vs Random | vs GT | sims/move CWM : GT |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        f = _flat(row)
        status = f["status"] + (" (scripted)" if f["scripted_answers"] else "")
        lines.append(
            f"| {f['game']} | {status} | {_f(f['calls'])} | {_f(f['tokens'])} | "
            f"{_f(f['time_s'], 1)} | {_f(f['train_accuracy'])} | {_f(f['test_accuracy'])} | "
            f"{_f(f['transition_accuracy'])} | {_f(f['terminal_accuracy'])} | "
            f"{_f(f['inference_accuracy'])} | {_f(f['behaviour_accuracy'])} | "
            f"{_f(f['vs_random_payoff'], 2)} | {_f(f['vs_gt_payoff'], 2)} | "
            f"{_sims(f['cwm_sims_per_move'], f['gt_sims_per_move'])} |")
    # from the rows, not the settings: a resumed run keeps the games it finished before
    times = sorted({(r.get("play") or {}).get("time") for r in rows} - {None})
    budget = (f"{times[0]:g} s of search per move" if len(times) == 1 else
              "the same time per move (per game in report.json)" if times else
              "the same budget")
    lines += ["", "vs Random / vs GT: the CWM agent's mean payoff over every seat against "
              "Random and against the same search on the reference model, both with "
              f"{budget} (the play check; '-' when it did not run: it needs --trusted). "
              "sims/move: the simulations per move each side ran in the CWM-vs-GT "
              "matches, so a slower model shows as fewer.", "", "## What fails, and why",
              ""]
    failing = [r for r in rows if not r.get("one_call")]
    if not failing:
        lines.append("Every game was solved in one call.")
    for row in failing:
        if row.get("status") == "error":
            lines.append(f"* **{row['game']}**: the benchmark failed: {row.get('error')}")
            continue
        curve = " → ".join(_f(h) for h in row.get("curve", [])) or "no program"
        parts = [f"* **{row['game']}** ({row.get('status')}, {row.get('calls')} calls); "
                 f"best training accuracy after each call: {curve}."]
        for key, label in (("first_train_failure", "first failing training test"),
                           ("first_test_failure", "first failing held-out test")):
            failure = row.get(key)
            if failure:
                parts.append(f"  {label.capitalize()}: `{failure['id']}` "
                             f"(kind {failure['kind']}): {failure['error']}")
        lines.append("\n".join(parts))
    return "\n".join(lines) + "\n"


def _plot(rows: list[dict[str, Any]], path: Path) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "Summary plot skipped: matplotlib is not installed (pip install matplotlib)."
    names = [r["game"] for r in rows]
    accs = [r.get("test_accuracy") or 0.0 for r in rows]
    calls = [r.get("calls") or 0 for r in rows]
    colors = ["tab:green" if r.get("one_call") else "tab:blue" if r.get("solved")
              else "tab:red" for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(6, 0.35 * len(rows) + 2), 6),
                                      sharex=True)
    top.bar(names, accs, color=colors)
    top.set_ylabel("held-out accuracy")
    top.set_ylim(0, 1.05)
    top.set_title("green: solved in one call, blue: solved later, red: not solved")
    bottom.bar(names, calls, color=colors)
    bottom.set_ylabel("LLM calls")
    bottom.tick_params(axis="x", labelrotation=75)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return f"Summary plot: `{path.name}`."


def write_report(out: str | Path, rows: list[dict[str, Any]], *, suite: str,
                 settings: dict[str, Any]) -> dict[str, Path]:
    """Write the report files of a suite run into ``out``; returns their paths."""
    out = Path(out)
    paths = {"markdown": out / "report.md", "json": out / "report.json",
             "csv": out / "report.csv", "plot": out / "summary.png"}
    note = _plot(rows, paths["plot"]) if rows else "No game ran."
    if not paths["plot"].is_file():
        del paths["plot"]
    paths["json"].write_text(json.dumps({"suite": suite, "settings": settings,
                                         "summary": summary(rows), "games": rows},
                                        indent=1) + "\n", encoding="utf-8")
    with paths["csv"].open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow(_flat(row))
    paths["markdown"].write_text(markdown(rows, suite=suite, settings=settings,
                                          plot_note=note), encoding="utf-8")
    return paths


def read_rows(out: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The stored settings and result rows of a suite run folder (finished games only)."""
    out = Path(out)
    bench = json.loads((out / "bench.json").read_text(encoding="utf-8"))
    rows = []
    for name in bench["games"]:
        file = out / name / "result.json"
        if file.is_file():
            rows.append(json.loads(file.read_text(encoding="utf-8")))
    return bench, rows
