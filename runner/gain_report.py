"""`jeeves gain`'s report: built once from the ledger (`mcp_pruner_server/ledger/queries.py`) as
plain data, then written as text for a terminal, as JSON (`--json`) or as HTML (`gain_html.py`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from mcp_pruner_server.ledger import queries as q

# The terminal chart and the HTML chart show this many days.
CHART_DAYS: Final = 14
CHART_WIDTH: Final = 40  # bar characters for the biggest day
TOP_LIMIT: Final = 10
TARGET_WIDTH: Final = 60  # a long command is cut to this many characters in the text tables
PERIODS: Final = (("today", "today"), ("7d", "7 days"), ("all", "all time"))


def local_midnight(now: float, days_back: int = 0) -> float:
    """Unix time of local midnight `days_back` days before `now`'s day."""
    today = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return today.timestamp() - days_back * 86_400


@dataclass(frozen=True)
class GainReport:
    """Everything `jeeves gain` shows."""

    ledger: Path
    price_per_mtok: float
    periods: dict[str, q.Totals]
    by_project: list[q.Group]
    by_agent: list[q.Group]
    by_tool: list[q.Group]
    top_files: list[q.Group]
    top_commands: list[q.Group]
    daily: list[q.Group]

    def cost(self, tokens: int) -> float:
        """USD for `tokens` input tokens at the configured price."""
        return tokens * self.price_per_mtok / 1_000_000

    def to_dict(self) -> dict[str, object]:
        """The `--json` document."""

        def groups(items: Sequence[q.Group]) -> list[dict[str, object]]:
            return [{**g.to_dict(), "saved_usd": round(self.cost(g.saved_tokens), 4)} for g in items]

        return {
            "ledger": str(self.ledger),
            "price_per_mtok_usd": self.price_per_mtok,
            "periods": {
                name: {**t.to_dict(), "saved_usd": round(self.cost(t.saved_tokens), 4)}
                for name, t in self.periods.items()
            },
            "by_project": groups(self.by_project),
            "by_agent": groups(self.by_agent),
            "by_tool": groups(self.by_tool),
            "top_files": groups(self.top_files),
            "top_commands": groups(self.top_commands),
            "daily": groups(self.daily),
        }


def build_report(
    conn: sqlite3.Connection, ledger: Path, price_per_mtok: float, now: float | None = None
) -> GainReport:
    """Query the ledger for the whole report."""
    now = time.time() if now is None else now
    scopes = {"today": q.Scope(local_midnight(now)), "7d": q.Scope(local_midnight(now, 6)), "all": q.Scope()}
    everything = q.Scope()
    return GainReport(
        ledger=ledger,
        price_per_mtok=price_per_mtok,
        periods={name: q.totals(conn, scope) for name, scope in scopes.items()},
        by_project=q.breakdown(conn, "project", everything),
        by_agent=q.breakdown(conn, "agent", everything),
        by_tool=q.breakdown(conn, "tool", everything),
        top_files=q.top_targets(conn, "file", everything, TOP_LIMIT),
        top_commands=q.top_targets(conn, "command", everything, TOP_LIMIT),
        daily=q.daily(conn, local_midnight(now, CHART_DAYS - 1)),
    )


def _n(value: int) -> str:
    return f"{value:,}"


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _usd(value: float) -> str:
    return f"${value:,.2f}"


def _cut(text: str, width: int = TARGET_WIDTH, *, keep_end: bool = False) -> str:
    """One line of at most `width` characters; `keep_end` for a path (its end names the file)."""
    one_line = " ".join(text.split())
    if len(one_line) <= width:
        return one_line
    return "…" + one_line[-(width - 1) :] if keep_end else one_line[: width - 1] + "…"


def _group_table(
    title: str, groups: Sequence[q.Group], report: GainReport, *, paths: bool = False
) -> list[str]:
    if not groups:
        return []
    lines = ["", title]
    keys = [_cut(g.key, keep_end=paths) for g in groups]
    width = max(len(k) for k in keys)
    for key, g in zip(keys, groups, strict=True):
        lines.append(
            f"  {key:<{width}}  {g.calls:>6} calls  {_n(g.saved_tokens):>12} saved"
            f"  ${report.cost(g.saved_tokens):,.2f}"
        )
    return lines


def chart_dates(now: float) -> list[str]:
    """The last `CHART_DAYS` local dates, oldest first (noon of each: no DST edge)."""
    return [
        datetime.fromtimestamp(local_midnight(now, back) + 12 * 3600).strftime("%Y-%m-%d")
        for back in range(CHART_DAYS - 1, -1, -1)
    ]


def daily_chart(days: Sequence[q.Group], now: float, width: int = CHART_WIDTH) -> list[str]:
    """One bar per day of the last `CHART_DAYS` (days without calls shown empty)."""
    by_day = {g.key: g.saved_tokens for g in days}
    dates = chart_dates(now)
    peak = max([by_day.get(d, 0) for d in dates] + [1])
    lines = []
    for day in dates:
        saved = by_day.get(day, 0)
        bar = "█" * round(max(saved, 0) / peak * width)
        lines.append(f"  {day} {bar:<{width}} {_n(saved)}")
    return lines


def render_text(report: GainReport, now: float | None = None) -> str:
    """The report for a terminal."""
    now = time.time() if now is None else now
    lines = [
        f"jeeves gain: ledger {report.ledger} (cost at ${report.price_per_mtok:g} per million input tokens)",
        "",
        f"  {'':<9} {'calls':>7} {'pruned':>7} {'tokens raw':>12} {'tokens sent':>12} "
        f"{'saved':>12} {'':>5} {'cost saved':>10} {'recover':>8} {'re-read':>8}",
    ]
    for key, label in PERIODS:
        t = report.periods[key]
        lines.append(
            f"  {label:<9} {t.calls:>7} {t.pruned:>7} {_n(t.raw_tokens):>12} {_n(t.sent_tokens):>12} "
            f"{_n(t.saved_tokens):>12} {_pct(t.saved_ratio):>5} {_usd(report.cost(t.saved_tokens)):>10} "
            f"{_pct(t.recover_rate):>8} {_pct(t.reread_rate):>8}"
        )
    lines += _group_table("per project", report.by_project, report, paths=True)
    lines += _group_table("per agent", report.by_agent, report)
    lines += _group_table("per tool", report.by_tool, report)
    lines += _group_table("top files by tokens saved", report.top_files, report, paths=True)
    lines += _group_table("top commands by tokens saved", report.top_commands, report)
    lines += ["", f"tokens saved per day (last {CHART_DAYS} days)", *daily_chart(report.daily, now)]
    return "\n".join(lines) + "\n"


def session_line(totals: q.Totals, session: str) -> str:
    """The one line `jeeves run` prints for its session."""
    return (
        f"ledger: session {session}: {totals.calls} calls, {totals.pruned} pruned, "
        f"{_n(totals.raw_tokens)} -> {_n(totals.sent_tokens)} tokens ({_pct(totals.saved_ratio)} saved), "
        f"{totals.recover_calls} recover_text ({totals.recovered} pruned calls recovered), "
        f"{totals.rereads} re-reads"
    )


def render_session(calls: Sequence[q.CallRow], totals: q.Totals, session: str) -> str:
    """`jeeves gain --session ID`: one line per call, then the session's line."""
    lines = [
        f"session {session}"
        + (f" · {calls[0].agent or '(unknown agent)'} · {calls[0].project}" if calls else "")
    ]
    for call in calls:
        when = datetime.fromtimestamp(call.ts).strftime("%H:%M:%S")
        marks = []
        if call.reread:
            marks.append("re-read")
        if call.recovers is not None:
            marks.append(f"recovers #{call.recovers}")
        if call.prune_id and call.tool not in q.RECOVER_TOOLS:
            marks.append(call.prune_id)
        target = call.target or ""
        if call.target_kind == "file":
            target = _cut(target.removeprefix(call.project + "/"), 48, keep_end=True)
        else:
            target = _cut(target, 48)
        lines.append(
            f"  #{call.id:<5} {when} {call.tool:<12} {call.outcome:<10} {_n(call.raw_tokens):>8} -> "
            f"{_n(call.sent_tokens):>7}  {call.latency_ms:>8.1f} ms  {target}  {' '.join(marks)}".rstrip()
        )
    lines.append(session_line(totals, session))
    return "\n".join(lines) + "\n"
