"""`jeeves prune`: the pruning engine on a file or stdin, for people and pipes.

Deliberately light: it imports the pure engine only (no server, no MCP stack), because
scripts and the quality harness spawn it once per text. It prunes as the `read` and `bash`
tools do: the input captured up to the tools' raw cap (beyond it, its head and its last MiB,
spooled to an unlinked file past 1 MiB), the tools' line and token budget, and no deadline
unless `--timeout-ms` sets one — a user waits for a big log, a tool call has its own bound.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Annotated, BinaryIO

import typer

from mcp_pruner_server.pruning.engine import MAX_INPUT_CHARS, prune
from mcp_pruner_server.pruning.types import SOURCE_TYPES, PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from tools_exec.capture import Cut, HeadTailCapture
from tools_exec.limits import RAW_TAIL_BYTES

_DEFAULTS = PruneOptions()
# The tools' defaults (`tool_budget_lines`, `tool_budget_tokens`, `tool_raw_cap_bytes`).
_TOOL_DEFAULTS = PruningConfig()

# The `read` tool's rule (tools_exec.limits): a NUL byte in the first 8 KiB means binary.
BINARY_SNIFF_BYTES = 8192
EXIT_REFUSED = 1
# How much of the input is read at a time into the capture.
READ_CHUNK_BYTES = 1 << 20
# `--timeout-ms 0` (the default): no deadline. The engine takes one, so a day stands for none.
NO_DEADLINE_MS = 24 * 3600 * 1000


def _read_input(stream: BinaryIO, raw_cap: int) -> tuple[Cut, int]:
    """The text to prune, as the tools capture it, and the input's size in bytes.

    Raises:
        OSError: the input cannot be read.
        ValueError: the input is binary (refused, like `read` refuses it).
    """
    # bytes, then UTF-8: text-mode stdin would turn "\r\n" into "\n" and break recovery
    capture = HeadTailCapture(max(raw_cap - RAW_TAIL_BYTES, BINARY_SNIFF_BYTES), RAW_TAIL_BYTES)
    try:
        first = stream.read(BINARY_SNIFF_BYTES)
        if b"\0" in first:
            raise ValueError("binary input (a NUL byte in its first 8 KiB): nothing to prune line by line")
        chunk = first
        while chunk:
            capture.feed(chunk)
            chunk = stream.read(READ_CHUNK_BYTES)
        return capture.full(), capture.total_bytes
    finally:
        capture.close()


def _source_type(option: str | None, file: str) -> SourceType:
    if option is not None:
        if option not in SOURCE_TYPES:
            raise typer.BadParameter(f"must be one of {', '.join(SOURCE_TYPES)}", param_hint="--source-type")
        return option  # checked against SOURCE_TYPES just above
    if file == "-":
        return "code"
    from mcp_pruner_server.pruning.source_types import source_type_for  # the `read` tool's rule

    return source_type_for(file)


def _check_options(
    max_prune_ratio: float, min_keep_lines: int, timeout_ms: int, budget_lines: int, budget_tokens: int
) -> None:
    # The ranges `prune_text` enforces (tools/engine_tools.py); out of them the engine would quietly
    # return the text untouched.
    if not 0.0 <= max_prune_ratio <= 1.0:
        raise typer.BadParameter("must be between 0 and 1", param_hint="--max-prune-ratio")
    if min_keep_lines < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--min-keep-lines")
    if timeout_ms < 0:
        raise typer.BadParameter("must be 0 (no deadline) or more", param_hint="--timeout-ms")
    if budget_lines < 0:
        raise typer.BadParameter("must be 0 (no line budget) or more", param_hint="--budget-lines")
    if budget_tokens < 0:
        raise typer.BadParameter("must be 0 (no token budget) or more", param_hint="--budget-tokens")


def prune_command(
    goal: Annotated[str, typer.Option("--goal", help="The question the kept lines must answer (required).")],
    file: Annotated[str, typer.Argument(help="File to prune, or - for stdin.")] = "-",
    source_type: Annotated[
        str | None,
        typer.Option(
            "--source-type",
            help="code, logs or docs (default: from FILE's name as `read` does: .md/.txt docs, .log logs; "
            "stdin: code).",
        ),
    ] = None,
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
        int,
        typer.Option(
            "--timeout-ms", help="Give up (and print the text untouched) after this long; 0: no deadline."
        ),
    ] = 0,
    budget_lines: Annotated[
        int,
        typer.Option("--budget-lines", help="Most lines kept, as the tools' tool_budget_lines; 0: no limit."),
    ] = _TOOL_DEFAULTS.tool_budget_lines,
    budget_tokens: Annotated[
        int,
        typer.Option(
            "--budget-tokens",
            help="Most estimated tokens (chars/4) kept, as the tools' tool_budget_tokens; 0: no limit.",
        ),
    ] = _TOOL_DEFAULTS.tool_budget_tokens,
) -> None:
    """Prune FILE (or stdin) to the lines that matter for --goal (--markers shows where lines went)."""
    if not goal.strip():
        raise typer.BadParameter(
            "needs a question: the kept lines are those that answer it", param_hint="--goal"
        )
    _check_options(max_prune_ratio, min_keep_lines, timeout_ms, budget_lines, budget_tokens)
    kind = _source_type(source_type, file)
    try:
        if file == "-":
            cut, size = _read_input(sys.stdin.buffer, _TOOL_DEFAULTS.tool_raw_cap_bytes)
        else:
            with Path(file).open("rb") as stream:
                cut, size = _read_input(stream, _TOOL_DEFAULTS.tool_raw_cap_bytes)
    except OSError as exc:
        raise typer.BadParameter(str(exc), param_hint="FILE") from exc
    except ValueError as exc:
        typer.echo(f"jeeves prune: {'stdin' if file == '-' else file}: {exc}", err=True)
        raise typer.Exit(EXIT_REFUSED) from None
    text = cut.text
    if cut.omitted is not None:
        sys.stderr.write(
            f"jeeves prune: {size:,} bytes is over the tools' raw cap of "
            f"{_TOOL_DEFAULTS.tool_raw_cap_bytes:,}: pruning its head and its last MiB\n"
        )
    options = PruneOptions(
        max_prune_ratio=max_prune_ratio,
        min_keep_lines=min_keep_lines,
        timeout_ms=timeout_ms or NO_DEADLINE_MS,
        annotate_lines=annotate_lines,
        include_markers=markers,
        max_kept_lines=budget_lines or None,
        max_kept_tokens=budget_tokens or None,
        path=None if file == "-" else file,  # its extension names the language of code
    )
    result = prune(text, goal, kind, options, f"prn_{uuid.uuid4().hex}")
    undecodable = text.count(REPLACEMENT_CHARACTER)
    if undecodable:  # decoded as `read` decodes: say so rather than prune U+FFFDs in silence
        sys.stderr.write(
            f"jeeves prune: {'stdin' if file == '-' else file} is not all UTF-8: "
            f"{undecodable:,} U+FFFD replacement characters stand for bytes that are not\n"
        )
    notice = _notice(result, len(text), timeout_ms)
    if notice is not None:  # never silent: the text comes back untouched, and this says why
        sys.stderr.write(f"jeeves prune: {notice[1]}\n")
    body = {**result.to_dict(), **({"reason": notice[0]} if notice else {})}
    out = json.dumps(body, ensure_ascii=False) + "\n" if json_output else result.pruned_text
    sys.stdout.buffer.write(out.encode("utf-8"))
    sys.stdout.buffer.flush()


REPLACEMENT_CHARACTER = "\ufffd"
# The engine's no-op warnings that mean "could not prune", with the sentence printed for each.
_NOTICES = {
    "input_too_large": "not pruned: {chars:,} characters is over the engine's {cap:,}; printed unchanged",
    "timeout": "not pruned: the engine ran out of its {timeout_ms} ms (--timeout-ms); printed unchanged",
    "constraints_unmet": "not pruned: --max-prune-ratio / --min-keep-lines out of range; printed unchanged",
    "internal_error": "not pruned: the engine failed internally; printed unchanged",
}
# Nothing failed, yet no line was removed: the floors or the question kept them all.
_KEPT_WHOLE = (
    "kept_whole",
    "not pruned: every line was kept (--max-prune-ratio / --min-keep-lines, or markers costing more "
    "than the lines they would hide); printed unchanged",
)


def _notice(result: PruneResult, chars: int, timeout_ms: int) -> tuple[str, str] | None:
    """(reason, one-line message) whenever the text comes back without a line removed."""
    if result.stats.pruned_lines > 0:
        return None
    reason = next((w for w in result.warnings if w in _NOTICES), None)
    if reason is None:
        return _KEPT_WHOLE if result.stats.original_lines > 0 else None
    return reason, _NOTICES[reason].format(chars=chars, cap=MAX_INPUT_CHARS, timeout_ms=timeout_ms)
