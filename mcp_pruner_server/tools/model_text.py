"""The text block a model reads: the tool's output itself, not the JSON of its result.

Agents (Claude Code, Codex) hand the MCP text block to their model verbatim and ignore
`structuredContent`. Code inside a JSON string pays for every escaped newline and quote and for
the metadata around it (+28 % on a pruned read), so `/mcp` answers with plain text: the kept
lines with their original numbers and markers, bash's streams under short headers and its exit
code, then at most one trailer line when something was pruned or cut. A pruned output is
already in the model's cheap form (`N text`, `[lines a-b pruned]`: `pruning/model_view.py`);
its markers carry no id, so the trailer names the result's `prune_id` once. Lines
`recover_text` numbered (`N│ `) are shown in the same cheap form. Programs still get every
field in `structuredContent`; `/rpc` and `/execute` keep the JSON text (`ToolReply.text`).

Pure functions of the structured result: no I/O, no settings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.model_view import MODEL_MARKER, model_prefix
from mcp_pruner_server.pruning.types import LINE_PREFIX_TEMPLATE
from mcp_pruner_server.tools.outcome import JsonObject

# prune_text's canonical marker; like the model's, its groups are the first and last line it hides.
_CANONICAL_MARKER = re.compile(r"^⟦PRUNÉ: prune_id=\S+ lignes (\d+)-(\d+) \(\d+\) raison=[^⟧]*⟧$")
NO_OUTPUT = "(no output)"
NO_MATCHES = "(no matches)"


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _pruned_counts(text: str, marker: re.Pattern[str] = MODEL_MARKER) -> tuple[int, int]:
    """(lines pruned, lines shown) of a pruned text: a tool output in the model's form, or
    prune_text's with `_CANONICAL_MARKER`."""
    pruned = shown = 0
    for line in text.splitlines():
        match = marker.match(line)
        if match is None:
            shown += 1
        else:
            pruned += int(match.group(2)) - int(match.group(1)) + 1
    return pruned, shown


def _recover_note(pruning: Mapping[str, object], marked: Sequence[str]) -> str:
    """`prune_id=…` of the texts that carry markers, each named when there are several."""
    by_text = _mapping(pruning.get("prune_ids"))
    ids = [(name, _text(by_text.get(name)) or _text(pruning.get("prune_id"))) for name in marked]
    if len(ids) == 1:
        return f"prune_id={ids[0][1]}"
    return ", ".join(f"{name}: prune_id={prune_id}" for name, prune_id in ids)


def trailer(result: Mapping[str, object], texts: Mapping[str, str]) -> str | None:
    """One short line saying what the model does not see (pruned lines, a byte cut), or None.

    `texts`: the result's outputs by field name (`stdout`, …), to name each one's `prune_id`.
    """
    notes: list[str] = []
    pruning = _mapping(result.get("pruning"))
    if pruning.get("applied") is True:
        pruned = shown = 0
        marked: list[str] = []
        for name, text in texts.items():
            text_pruned, text_shown = _pruned_counts(text)
            pruned, shown = pruned + text_pruned, shown + text_shown
            if text_pruned:
                marked.append(name)
        if pruned:
            recover = _recover_note(pruning, marked)
            notes.append(f"{pruned} of {pruned + shown} lines pruned · recover_text {recover}")
    if pruning.get("fallback") is True:
        notes.append("pruner failed: raw output")
    if result.get("truncated") is True:
        notes.append("output truncated (max_output_bytes)")
    invalid = result.get("invalid_utf8_bytes")
    if isinstance(invalid, int) and invalid:
        notes.append(f"not UTF-8: {invalid} bytes shown as \N{REPLACEMENT CHARACTER}")
    return f"[{' · '.join(notes)}]" if notes else None


def _with_trailer(body: str, result: Mapping[str, object], texts: Mapping[str, str]) -> str:
    line = trailer(result, texts)
    body = body.rstrip("\n")
    if line is None:
        return body
    return f"{body}\n{line}" if body else line


def _error_line(result: Mapping[str, object]) -> str | None:
    error = _mapping(result.get("error"))
    if not error:
        return None
    return f"error: {_text(error.get('code'))}: {_text(error.get('message'))}"


def _read(result: Mapping[str, object]) -> str:
    content = _text(result.get("content"))
    error = _error_line(result)
    if error is not None and "content" not in result:
        return error
    return _with_trailer(content, result, {"content": content})


def _bash(result: Mapping[str, object]) -> str:
    stdout, stderr = _text(result.get("stdout")), _text(result.get("stderr"))
    parts: list[str] = []
    if stdout:
        parts.append("stdout:\n" + stdout.rstrip("\n"))
    if stderr:
        parts.append("stderr:\n" + stderr.rstrip("\n"))
    error = _mapping(result.get("error"))
    code = _text(error.get("code"))
    if "exit_code" in result and code in ("", "nonzero_exit"):
        if not parts:
            parts.append(NO_OUTPUT)
        parts.append(f"exit code: {result.get('exit_code')}")
    else:
        line = _error_line(result)
        if line is not None:
            parts.append(line)
    return _with_trailer("\n".join(parts), result, {"stdout": stdout, "stderr": stderr})


def _grep(result: Mapping[str, object]) -> str:
    error = _error_line(result)
    listing = result.get("listing")
    if isinstance(listing, str):
        body = listing
    else:
        lines = []
        matches = result.get("matches")
        for m in matches if isinstance(matches, list) else []:
            match = _mapping(m)
            sep = "-" if match.get("kind") == "context" else ":"
            lines.append(f"{_text(match.get('path'))}{sep}{match.get('line')}{sep}{_text(match.get('text'))}")
        body = "\n".join(lines)
    if error is not None:
        body = f"{body}\n{error}" if body else error
    elif not body:
        body = NO_MATCHES
    return _with_trailer(body, result, {"listing": body})


def _prune_text(result: Mapping[str, object]) -> str:
    pruned_text = _text(result.get("pruned_text"))
    pruned, shown = _pruned_counts(pruned_text, _CANONICAL_MARKER)
    line = f"[prune_id={_text(result.get('prune_id'))} · {pruned} of {pruned + shown} lines pruned]"
    return f"{pruned_text.rstrip(chr(10))}\n{line}" if pruned_text else line


def _served_numbers(metadata: Mapping[str, object]) -> list[int]:
    """The original number of every line `recover_text` served, in order."""
    numbers: list[int] = []
    ranges = metadata.get("ranges")
    for served in ranges if isinstance(ranges, list) else []:
        start, end = _mapping(served).get("start_line"), _mapping(served).get("end_line")
        if isinstance(start, int) and isinstance(end, int):
            numbers.extend(range(start, end + 1))
    return numbers


def _recover(result: Mapping[str, object]) -> str:
    raw_text = _text(result.get("raw_text"))
    lines = raw_text.split("\n")
    numbers = _served_numbers(_mapping(result.get("metadata")))
    prefixes = [LINE_PREFIX_TEMPLATE.format(line_no=n) for n in numbers]
    # Lines asked with `include_line_numbers` (each starts with its own `N│ `): shown with the
    # model's cheap numbers, as in the output they were pruned from.
    if len(prefixes) == len(lines) and all(map(str.startswith, lines, prefixes)):
        lines = [model_prefix(n, line[len(p) :]) for n, p, line in zip(numbers, prefixes, lines, strict=True)]
    return "\n".join(lines).rstrip("\n")


_RENDERERS = {"read": _read, "bash": _bash, "grep": _grep}
_ENGINE_RENDERERS = {"prune_text": _prune_text, "recover_text": _recover, "recover_range": _recover}


def model_text(tool: str, structured: JsonObject) -> str | None:
    """The plain text a model reads for one tool result; None where the JSON is the answer (`health`).

    `tool` is the called name (the engine tools' results carry no `tool` field).
    """
    if tool in _RENDERERS and structured.get("tool") == tool:
        return _RENDERERS[tool](structured)
    if tool in _ENGINE_RENDERERS:
        return _ENGINE_RENDERERS[tool](structured)
    return None
