"""`jeeves prune`: the pruning engine on a file or stdin, for people and pipes.

Deliberately light: it imports the pure engine only (no server, no MCP stack), because
scripts and the quality harness spawn it once per text.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Annotated

import typer

from mcp_pruner_server.pruning.engine import MAX_INPUT_CHARS, prune
from mcp_pruner_server.pruning.types import SOURCE_TYPES, PruneOptions, PruneResult, SourceType

_DEFAULTS = PruneOptions()


def _read_input(file: str) -> str:
    # bytes, then UTF-8: text-mode stdin would turn "\r\n" into "\n" and break recovery
    raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    return raw.decode("utf-8", errors="replace")


def prune_command(
    file: Annotated[str, typer.Argument(help="File to prune, or - for stdin.")] = "-",
    goal: Annotated[str, typer.Option("--goal", help="The question the kept lines must answer.")] = "",
    source_type: Annotated[str, typer.Option("--source-type", help="code, logs or docs.")] = "code",
    max_prune_ratio: Annotated[
        float, typer.Option("--max-prune-ratio", help="Largest fraction of lines that may be removed.")
    ] = _DEFAULTS.max_prune_ratio,
    min_keep_lines: Annotated[
        int, typer.Option("--min-keep-lines", help="Fewest lines to keep.")
    ] = _DEFAULTS.min_keep_lines,
    annotate_lines: Annotated[
        bool, typer.Option("--annotate-lines", help="Prefix kept lines with their original number.")
    ] = _DEFAULTS.annotate_lines,
    markers: Annotated[
        bool, typer.Option("--markers/--no-markers", help="Insert a marker line for each pruned block.")
    ] = False,  # opt-in here (issue 3 item 5): piped output stays the kept lines only
    json_output: Annotated[bool, typer.Option("--json", help="Print the prune_text result object.")] = False,
    timeout_ms: Annotated[
        int, typer.Option("--timeout-ms", help="Give up (and print the text untouched) after this long.")
    ] = _DEFAULTS.timeout_ms,
) -> None:
    """Prune FILE (or stdin) to the lines that matter for --goal; recoverable markers show the rest."""
    if source_type not in SOURCE_TYPES:
        raise typer.BadParameter(f"must be one of {', '.join(SOURCE_TYPES)}", param_hint="--source-type")
    try:
        text = _read_input(file)
    except OSError as exc:
        raise typer.BadParameter(str(exc), param_hint="FILE") from exc
    kind: SourceType = source_type  # checked against SOURCE_TYPES above
    options = PruneOptions(
        max_prune_ratio=max_prune_ratio,
        min_keep_lines=min_keep_lines,
        timeout_ms=timeout_ms,
        annotate_lines=annotate_lines,
        include_markers=markers,
    )
    result = prune(text, goal, kind, options, f"prn_{uuid.uuid4().hex}")
    notice = _notice(result, len(text), timeout_ms)
    if notice is not None:  # never silent: the text comes back untouched, and this says why
        sys.stderr.write(f"jeeves prune: {notice[1]}\n")
    body = {**result.to_dict(), **({"reason": notice[0]} if notice else {})}
    out = json.dumps(body, ensure_ascii=False) + "\n" if json_output else result.pruned_text
    sys.stdout.buffer.write(out.encode("utf-8"))
    sys.stdout.buffer.flush()


# The engine's no-op warnings that mean "could not prune", with the sentence printed for each.
_NOTICES = {
    "input_too_large": "not pruned: {chars:,} characters is over the engine's {cap:,}; printed unchanged",
    "timeout": "not pruned: the engine ran out of its {timeout_ms} ms (--timeout-ms); printed unchanged",
    "constraints_unmet": "not pruned: --max-prune-ratio / --min-keep-lines out of range; printed unchanged",
    "internal_error": "not pruned: the engine failed internally; printed unchanged",
}


def _notice(result: PruneResult, chars: int, timeout_ms: int) -> tuple[str, str] | None:
    """(reason, one-line message) when the engine gave the text back without trying to prune it."""
    if not result.stats.used_fallback:
        return None
    reason = next((w for w in result.warnings if w in _NOTICES), None)
    if reason is None:
        return None
    return reason, _NOTICES[reason].format(chars=chars, cap=MAX_INPUT_CHARS, timeout_ms=timeout_ms)
