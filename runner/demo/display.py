"""What the demo prints: one table per call as it goes, then the totals (rich on stdout)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from runner.demo.session import CallReport

# Lines of each call's kept output shown under its table: enough to see the point, not a page.
PREVIEW_LINES = 8


def _table(title: str) -> Table:
    table = Table(title=title, title_justify="left", show_lines=False)
    for column, justify in (
        ("call", "left"),
        ("tool", "left"),
        ("raw tokens", "right"),
        ("model gets", "right"),
        ("saved", "right"),
        ("fallback?", "center"),
        ("needed lines kept", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    return table


def _row(table: Table, report: CallReport) -> None:
    needed = f"{report.kept}/{report.needed}"
    if report.recovered:
        needed += f" (+{report.recovered} recovered)"
    table.add_row(
        report.step,
        report.tool,
        f"{report.raw_tokens:,}",
        f"{report.sent_tokens:,}",
        f"{report.saved_pct:.1f}%",
        "yes" if report.fallback else "no",
        needed,
    )


def show_call(console: Console, index: int, report: CallReport) -> None:
    """The table of one call, its question and the needed lines as the agent received them."""
    table = _table(f"[{index}] {report.step}")
    _row(table, report)
    console.print(table)
    if report.question:
        console.print(f"  focus question: [italic]{report.question}[/italic]")
    for line in report.preview[:PREVIEW_LINES]:
        console.print(Text(f"  {line}", style="dim"), no_wrap=True, overflow="ellipsis")
    if len(report.preview) > PREVIEW_LINES:
        console.print(f"  [dim]… {len(report.preview) - PREVIEW_LINES} more needed lines[/dim]")
    console.print()


def show_totals(console: Console, reports: Sequence[CallReport], tokenizer_name: str) -> None:
    """Every call again, a total row, and the needed-lines verdict."""
    table = _table(f"Totals (tokens counted with {tokenizer_name})")
    for report in reports:
        _row(table, report)
    raw = sum(r.raw_tokens for r in reports)
    sent = sum(r.sent_tokens for r in reports)
    needed = sum(r.needed for r in reports)
    covered = sum(r.kept + r.recovered for r in reports)
    recovered = sum(r.recovered for r in reports)
    saved = 100.0 * (raw - sent) / raw if raw else 0.0
    table.add_section()
    table.add_row(
        "TOTAL",
        "",
        f"{raw:,}",
        f"{sent:,}",
        f"{saved:.1f}%",
        "yes" if any(r.fallback for r in reports) else "no",
        f"{covered}/{needed}",
        style="bold",
    )
    console.print(table)
    console.print(
        f"[bold green]OK[/bold green]: the model gets {saved:.1f}% fewer tool-result tokens; "
        f"100% of the {needed} lines the agent needed were sent ({recovered} through recover_text).",
        soft_wrap=True,
    )
