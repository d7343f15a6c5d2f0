"""`report.json`, `report.md` and the printed summary, from one bench's figures (pure)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from runner.bench.quality import OURS

METHOD_ORDER = (OURS, "bm25block", "keyword", "uniform", "headtail")
_TRIP_ORDER = (
    "/rpc tools/list",
    "/mcp tools/list",
    "/rpc prune_text",
    "/mcp prune_text",
    "raw rg (subprocess)",
    "grep tool (/rpc)",
    "grep tool + focus (/rpc)",
)

Report = Mapping[str, object]


def _f(value: object, digits: int = 3) -> str:
    return f"{value:.{digits}f}" if isinstance(value, int | float) else "–"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _obj(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def quality_table(report: Report) -> list[str]:
    """Ours vs the four baselines at equal kept lines, per task kind, at the headline ratio."""
    rows = []
    for kind, block in _obj(report.get("quality")).items():
        methods = _obj(_obj(block).get("methods"))
        for method in METHOD_ORDER:
            m = _obj(methods.get(method))
            name = f"**{method}** (ours)" if method == OURS else method
            rows.append(
                [
                    f"{kind} ({_obj(block).get('tasks')})",
                    name,
                    _f(m.get("recall")),
                    _f(m.get("whole")),
                    _f(m.get("critical")) if "critical" in m else "–",
                    _f(m.get("kept_lines")),
                    _f(m.get("kept_chars")),
                ]
            )
    header = ["tasks", "method", "recall", "whole", "critical", "kept_lines", "kept_chars"]
    return _table(header, rows)


def latency_table(report: Report) -> list[str]:
    """Engine latency per kind, startup to healthy, round trips and grep overhead (ms)."""
    rows = []
    for kind, summary in _obj(report.get("engine_latency_ms")).items():
        s = _obj(summary)
        rows.append(
            [
                f"engine, {kind} task",
                str(s.get("n")),
                _f(s.get("p50"), 1),
                _f(s.get("p95"), 1),
                _f(s.get("max"), 1),
            ]
        )
    server = _obj(report.get("server"))
    start = _obj(server.get("startup_ms"))
    if start:
        rows.append(
            [
                "startup to healthy",
                str(start.get("n")),
                _f(start.get("p50"), 1),
                _f(start.get("p95"), 1),
                _f(start.get("max"), 1),
            ]
        )
    trips = _obj(server.get("round_trips_ms"))
    for name in _TRIP_ORDER:
        s = _obj(trips.get(name))
        if s:
            rows.append(
                [name, str(s.get("n")), _f(s.get("p50"), 1), _f(s.get("p95"), 1), _f(s.get("max"), 1)]
            )
    return _table(["what", "n", "p50 ms", "p95 ms", "max ms"], rows)


def headline(report: Report) -> list[str]:
    """Three sentences: tokenizer, token savings at the headline ratio, grep overhead."""
    lines = []
    tokens = _obj(report.get("tokens"))
    if tokens:
        before, after = tokens.get("before"), tokens.get("after")
        if isinstance(before, int) and isinstance(after, int) and before:
            saved = 100.0 * (before - after) / before
            lines.append(
                f"- Tokens ({report.get('tokenizer')}): {before:,} -> {after:,} over all tasks "
                f"({saved:.1f}% saved at max_prune_ratio={report.get('headline_ratio')})."
            )
    overhead = _obj(report.get("server")).get("grep_overhead_p50_ms")
    if isinstance(overhead, int | float):
        lines.append(
            f"- `grep` tool overhead over raw `rg` (p50, HTTP + JSON + confinement): {overhead:.1f} ms."
        )
    violations = report.get("violations")
    lines.append(f"- Contract violations seen by the harness checks: {violations}.")
    return lines


def summary_text(report: Report) -> str:
    """What `jeeves bench` prints: the two tables and the headline."""
    parts = [
        f"Pruning quality at max_prune_ratio={report.get('headline_ratio')} "
        "(baselines keep as many lines as ours):",
        *quality_table(report),
        "",
        "Latency:",
        *latency_table(report),
        "",
        *headline(report),
    ]
    return "\n".join(parts) + "\n"


def markdown(report: Report) -> str:
    """The whole `report.md`."""
    mode = "quick (task subsets, fewer calls)" if report.get("quick") else "full"
    parts = [
        "# jeeves bench",
        "",
        f"- Mode: {mode}; elapsed {_f(report.get('elapsed_s'), 1)} s; "
        f"generated {report.get('generated_at')}.",
        f"- Harness: `{report.get('harness')}` (its tasks, baselines and metrics).",
        f"- Token counts: {report.get('tokenizer')}.",
        "",
        "## Pruning quality",
        "",
        "Ours vs the harness's four baselines, each keeping exactly as many non-blank lines as ours "
        "did on the same task. `recall`: share of gold lines kept; `whole`: share of tasks with every gold "
        "line kept; `critical`: logs' `E ` and `FAILED` lines; `kept_*`: what was kept.",
        "",
        *quality_table(report),
        "",
        "## Recall vs kept lines",
        "",
        "The same comparison at every `max_prune_ratio` of the sweep "
        f"({', '.join(str(r) for r in _ratios(report))}): see `recall_vs_kept.png`.",
        "",
        *sweep_table(report),
        "",
        "## Latency",
        "",
        *latency_table(report),
        "",
        *headline(report),
        "",
        "## Plots",
        "",
        *(f"![{name}]({name})" for name in _strings(report.get("plots"))),
        *(f"- {note}" for note in _strings(report.get("notes"))),
        "",
    ]
    return "\n".join(parts)


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _ratios(report: Report) -> list[float]:
    sweep = _obj(report.get("sweep"))
    for points in sweep.values():
        if isinstance(points, list):
            ratios = (_obj(p).get("ratio") for p in points)
            return [float(r) for r in ratios if isinstance(r, int | float)]
    return []


def _recall_at(metrics: Mapping[str, object]) -> str:
    return f"{_f(metrics.get('recall'), 2)} @ {_f(metrics.get('kept_lines'), 2)}"


def sweep_table(report: Report) -> list[str]:
    """Recall / kept fraction of every method at every ratio of the sweep."""
    rows = []
    for kind, points in _obj(report.get("sweep")).items():
        for point in points if isinstance(points, list) else []:
            methods = _obj(_obj(point).get("methods"))
            cells = [_recall_at(_obj(methods.get(m))) for m in METHOD_ORDER]
            rows.append([kind, str(_obj(point).get("ratio")), *cells])
    return _table(["kind", "max_prune_ratio", *(f"{m} recall @ kept" for m in METHOD_ORDER)], rows)


def write(report: Report, out: Path) -> tuple[Path, Path]:
    """`report.json` and `report.md` in `out`."""
    json_path, md_path = out / "report.json", out / "report.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(markdown(report), encoding="utf-8")
    return json_path, md_path
