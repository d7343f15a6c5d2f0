"""The text block a model reads: the tool's output itself, not the JSON of its result.

Agents (Claude Code, Codex) hand the MCP text block to their model verbatim and ignore
`structuredContent`. Code inside a JSON string pays for every escaped newline and quote and for
the metadata around it (+28 % on a pruned read), so `/mcp` answers with plain text: the kept
lines with their original numbers and markers, bash's streams under short headers and its exit
code, then at most one trailer line when something was pruned or cut. Programs still get every
field in `structuredContent`; `/rpc` and `/execute` keep the JSON text (`ToolReply.text`).

Pure functions of the structured result: no I/O, no settings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pipeline.outcome import JsonObject

# One marker per pruned block; its `(n)` is how many original lines it stands for.
_MARKER = re.compile(r"^⟦PRUNÉ: prune_id=(\S+) lignes \d+-\d+ \((\d+)\) raison=[^⟧]*⟧$")
NO_OUTPUT = "(no output)"
NO_MATCHES = "(no matches)"


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _pruned_counts(texts: Sequence[str]) -> tuple[int, int, list[str]]:
    """(lines pruned, lines shown, prune ids in order of appearance) over the marked texts."""
    pruned = shown = 0
    ids: list[str] = []
    for text in texts:
        for line in text.splitlines():
            match = _MARKER.match(line)
            if match is None:
                shown += 1
                continue
            pruned += int(match.group(2))
            if match.group(1) not in ids:
                ids.append(match.group(1))
    return pruned, shown, ids


def trailer(result: Mapping[str, object], texts: Sequence[str]) -> str | None:
    """One short line saying what the model does not see (pruned lines, a byte cut), or None."""
    notes: list[str] = []
    pruning = _mapping(result.get("pruning"))
    if pruning.get("applied") is True:
        pruned, shown, ids = _pruned_counts(texts)
        if pruned:
            recover = " ".join(f"prune_id={i}" for i in ids)
            notes.append(f"{pruned} of {pruned + shown} lines pruned · recover_text {recover}")
    if pruning.get("fallback") is True:
        notes.append("pruner failed: raw output")
    if result.get("truncated") is True:
        notes.append("output truncated (max_output_bytes)")
    return f"[{' · '.join(notes)}]" if notes else None


def _with_trailer(body: str, result: Mapping[str, object], texts: Sequence[str]) -> str:
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
    return _with_trailer(content, result, [content])


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
    return _with_trailer("\n".join(parts), result, [stdout, stderr])


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
    return _with_trailer(body, result, [body])


def _prune_text(result: Mapping[str, object]) -> str:
    pruned_text = _text(result.get("pruned_text"))
    pruned, shown, _ = _pruned_counts([pruned_text])
    line = f"[prune_id={_text(result.get('prune_id'))} · {pruned} of {pruned + shown} lines pruned]"
    return f"{pruned_text.rstrip(chr(10))}\n{line}" if pruned_text else line


def _recover(result: Mapping[str, object]) -> str:
    return _text(result.get("raw_text")).rstrip("\n")


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
