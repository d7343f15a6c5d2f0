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


# The `read` tool's rule (tools_exec.limits): a NUL byte in the first 8 KiB means binary.
BINARY_SNIFF_BYTES = 8192
EXIT_REFUSED = 1


def _read_input(file: str) -> str:
    """The text to prune.

    Raises:
        OSError: the file cannot be read.
        ValueError: the input is binary (refused, like `read` refuses it).
    """
    # bytes, then UTF-8: text-mode stdin would turn "\r\n" into "\n" and break recovery
    raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    if b"\0" in raw[:BINARY_SNIFF_BYTES]:
        raise ValueError("binary input (a NUL byte in its first 8 KiB): nothing to prune line by line")
    return raw.decode("utf-8", errors="replace")


def _source_type(option: str | None, file: str) -> SourceType:
    if option is not None:
        if option not in SOURCE_TYPES:
            raise typer.BadParameter(f"must be one of {', '.join(SOURCE_TYPES)}", param_hint="--source-type")
        return option  # checked against SOURCE_TYPES just above
    if file == "-":
        return "code"
    from mcp_pruner_server.tools.read_tool import source_type_for  # the `read` tool's rule, by suffix

    return source_type_for(file)


def _check_options(max_prune_ratio: float, min_keep_lines: int, timeout_ms: int) -> None:
    # The ranges `prune_text` enforces (tools/engine_tools.py); out of them the engine would quietly
    # return the text untouched.
    if not 0.0 <= max_prune_ratio <= 1.0:
        raise typer.BadParameter("must be between 0 and 1", param_hint="--max-prune-ratio")
    if min_keep_lines < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--min-keep-lines")
    if timeout_ms < 1:
        raise typer.BadParameter("must be 1 or more", param_hint="--timeout-ms")


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
        int, typer.Option("--timeout-ms", help="Give up (and print the text untouched) after this long.")
    ] = _DEFAULTS.timeout_ms,
) -> None:
    """Prune FILE (or stdin) to the lines that matter for --goal (--markers shows where lines went)."""
    if not goal.strip():
        raise typer.BadParameter(
            "needs a question: the kept lines are those that answer it", param_hint="--goal"
        )
    _check_options(max_prune_ratio, min_keep_lines, timeout_ms)
    kind = _source_type(source_type, file)
    try:
        text = _read_input(file)
    except OSError as exc:
        raise typer.BadParameter(str(exc), param_hint="FILE") from exc
    except ValueError as exc:
        typer.echo(f"jeeves prune: {'stdin' if file == '-' else file}: {exc}", err=True)
        raise typer.Exit(EXIT_REFUSED) from None
    options = PruneOptions(
        max_prune_ratio=max_prune_ratio,
        min_keep_lines=min_keep_lines,
        timeout_ms=timeout_ms,
        annotate_lines=annotate_lines,
        include_markers=markers,
        path=None if file == "-" else file,  # its extension names the language of code
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
