"""`jeeves gain --html FILE`: the report as one self-contained page (inline CSS and SVG charts,
no script, no font or CDN: it opens offline and can be mailed as it is)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from mcp_pruner_server.ledger import queries as q
from runner.gain_report import CHART_DAYS, PERIODS, GainReport, chart_dates

CHART_W: Final = 720
CHART_H: Final = 200
BAR_ROW_H: Final = 22
LABEL_W: Final = 260

_CSS: Final = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .25em .6em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.key { font-family: ui-monospace, monospace; word-break: break-all; }
.muted { color: #777; } svg text { font: 11px system-ui, sans-serif; fill: #333; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _n(value: int) -> str:
    return f"{value:,}"


def daily_svg(days: Sequence[q.Group], now: float) -> str:
    """Vertical bars: tokens saved on each of the last `CHART_DAYS` days."""
    by_day = {g.key: g.saved_tokens for g in days}
    dates = chart_dates(now)
    peak = max([by_day.get(d, 0) for d in dates] + [1])
    slot = CHART_W / len(dates)
    plot_h = CHART_H - 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{CHART_H}" '
        f'viewBox="0 0 {CHART_W} {CHART_H}" role="img" aria-label="tokens saved per day">'
    ]
    for i, day in enumerate(dates):
        saved = max(by_day.get(day, 0), 0)
        h = saved / peak * plot_h
        x = i * slot + slot * 0.15
        y = 15 + plot_h - h
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{h:.1f}" fill="#3b7dd8">'
            f"<title>{_e(day)}: {_n(saved)} tokens saved</title></rect>"
        )
        parts.append(
            f'<text x="{i * slot + slot / 2:.1f}" y="{CHART_H - 8}" text-anchor="middle">{_e(day[5:])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def bars_svg(groups: Sequence[q.Group], label: str) -> str:
    """Horizontal bars: tokens sent (dark) inside tokens raw (light), one row per group."""
    if not groups:
        return '<p class="muted">no calls yet</p>'
    peak = max([g.raw_tokens for g in groups] + [1])
    width = CHART_W - LABEL_W - 90
    height = BAR_ROW_H * len(groups) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{height}" '
        f'viewBox="0 0 {CHART_W} {height}" role="img" aria-label="{_e(label)}">'
    ]
    for i, g in enumerate(groups):
        y = 5 + i * BAR_ROW_H
        raw_w = g.raw_tokens / peak * width
        sent_w = min(g.sent_tokens, g.raw_tokens) / peak * width
        name = g.key if len(g.key) <= 40 else "…" + g.key[-39:]
        parts.append(f'<text x="0" y="{y + 14}">{_e(name)}</text>')
        parts.append(f'<rect x="{LABEL_W}" y="{y + 3}" width="{raw_w:.1f}" height="14" fill="#c9dcf5"/>')
        parts.append(f'<rect x="{LABEL_W}" y="{y + 3}" width="{sent_w:.1f}" height="14" fill="#3b7dd8"/>')
        parts.append(f'<text x="{LABEL_W + raw_w + 6:.1f}" y="{y + 14}">{_n(g.saved_tokens)} saved</text>')
    parts.append("</svg>")
    return "".join(parts)


def _group_table(groups: Sequence[q.Group], report: GainReport, what: str) -> str:
    if not groups:
        return '<p class="muted">none yet</p>'
    rows = "".join(
        f'<tr><td class="key">{_e(g.key)}</td><td>{g.calls}</td><td>{_n(g.raw_tokens)}</td>'
        f"<td>{_n(g.sent_tokens)}</td><td>{_n(g.saved_tokens)}</td><td>${report.cost(g.saved_tokens):,.2f}</td></tr>"
        for g in groups
    )
    head = (
        f"<tr><th>{_e(what)}</th><th>calls</th><th>tokens raw</th><th>tokens sent</th>"
        "<th>saved</th><th>cost saved</th></tr>"
    )
    return f"<table>{head}{rows}</table>"


def render_html(report: GainReport, now: float) -> str:
    """The whole page."""
    period_rows = "".join(
        f"<tr><td>{_e(label)}</td><td>{t.calls}</td><td>{t.pruned}</td><td>{_n(t.raw_tokens)}</td>"
        f"<td>{_n(t.sent_tokens)}</td><td>{_n(t.saved_tokens)} ({t.saved_ratio * 100:.0f}%)</td>"
        f"<td>${report.cost(t.saved_tokens):,.2f}</td><td>{t.recover_rate * 100:.0f}%</td>"
        f"<td>{t.reread_rate * 100:.0f}%</td></tr>"
        for key, label in PERIODS
        for t in (report.periods[key],)
    )
    generated = datetime.fromtimestamp(now).strftime("%Y-%m-%d %H:%M")
    sections = [
        f'<h1>jeeves gain</h1><p class="muted">ledger {_e(report.ledger)} · generated {generated} · '
        f"cost at ${report.price_per_mtok:g} per million input tokens</p>",
        "<table><tr><th></th><th>calls</th><th>pruned</th><th>tokens raw</th><th>tokens sent</th>"
        "<th>saved</th><th>cost saved</th><th>recover rate</th><th>re-read rate</th></tr>"
        f"{period_rows}</table>",
        f"<h2>Tokens saved per day (last {CHART_DAYS} days)</h2>{daily_svg(report.daily, now)}",
        f"<h2>Per tool</h2>{bars_svg(report.by_tool, 'tokens per tool')}"
        f"{_group_table(report.by_tool, report, 'tool')}",
        f"<h2>Per project</h2>{bars_svg(report.by_project, 'tokens per project')}"
        f"{_group_table(report.by_project, report, 'project')}",
        f"<h2>Per agent</h2>{_group_table(report.by_agent, report, 'agent')}",
        f"<h2>Top files by tokens saved</h2>{_group_table(report.top_files, report, 'file')}",
        f"<h2>Top commands by tokens saved</h2>{_group_table(report.top_commands, report, 'command')}",
    ]
    body = "\n".join(sections)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>jeeves gain</title><style>{_CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )
