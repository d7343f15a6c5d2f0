"""Not a speed figure: what a model receives for each task as a tool output, in cl100k tokens,
with the canonical forms the tools sent before (`N│ `, `⟦PRUNÉ: prune_id=…⟧` per block, sent
when smaller in bytes) and with the model's form (`N `, `[lines a-b pruned]`, one id in the
trailer, sent when 10 % cheaper than the raw output).

    python benchmarks/model_view_cost.py [--lines N] [TASKS.jsonl ...]   (default: /work/shared/eval/*.jsonl)

`--lines N` keeps each text's first N lines: short outputs, where the numbers and markers
weigh most against what pruning saves.

Each task's text is pruned for its `goal_hint` with the options the tools use (ratio 0.9, at
least 10 lines, the default budget) and rendered as `read`'s text block; a result is "larger"
when it costs more tokens than the raw text.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

from mcp_pruner_server.pipeline.prune_step import tool_output_options, worth_sending
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.text import estimate_tokens, utf8_size
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import new_prune_id
from mcp_pruner_server.tools.model_text import model_text
from runner.bench.tokens import count_tokens, tokenizer

DEFAULT_SETS = sorted(Path("/work/shared/eval").glob("*.jsonl"))
ENGINE_TIMEOUT_MS = 60_000  # a figure of the forms, not of the deadline


def canonical_sent(text: str, goal: str, source_type: str, path: str | None) -> str:
    """The text block `read` sent before the model's form (model_text.py at e23e74a)."""
    config = PruningConfig()
    options = tool_output_options(ENGINE_TIMEOUT_MS, (config.tool_budget_lines, config.tool_budget_tokens))
    prune_id = new_prune_id()
    result = prune(text, goal, source_type, replace(options, path=path, model_view=False), prune_id)  # type: ignore[arg-type]
    if not result.stats.pruned_lines or utf8_size(result.pruned_text) >= utf8_size(text):
        return text.rstrip("\n")
    pruned, total = result.stats.pruned_lines, result.stats.original_lines
    shown = total - pruned - (1 if text.endswith("\n") else 0)
    trailer = f"[{pruned} of {pruned + shown} lines pruned · recover_text prune_id={prune_id}]"
    return f"{result.pruned_text.rstrip(chr(10))}\n{trailer}"


def model_sent(text: str, goal: str, source_type: str, path: str | None) -> tuple[str, bool]:
    """The text block `read` sends now, and whether it is the pruned view."""
    config = PruningConfig()
    options = tool_output_options(ENGINE_TIMEOUT_MS, (config.tool_budget_lines, config.tool_budget_tokens))
    prune_id = new_prune_id()
    result = prune(text, goal, source_type, replace(options, path=path), prune_id)  # type: ignore[arg-type]
    pruned = bool(result.stats.pruned_lines) and worth_sending(result.pruned_text, estimate_tokens(text))
    content = result.pruned_text if pruned else text
    pruning = {"applied": pruned, "prune_id": prune_id}
    return model_text("read", {"tool": "read", "content": content, "pruning": pruning}) or "", pruned


def main(paths: list[Path], lines: int | None) -> None:
    raw_total = before_total = after_total = 0
    before_larger = after_larger = tasks = sent_raw = 0
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            task = json.loads(line)
            text, goal, source_type = task["text"], task["goal_hint"], task["source_type"]
            if lines is not None:
                text = "\n".join(text.split("\n")[:lines])
            file_path = task["id"].split(":")[1] if task["id"].startswith("code:") else None
            raw = count_tokens(text.rstrip("\n"))
            before = count_tokens(canonical_sent(text, goal, source_type, file_path))
            after_text, pruned = model_sent(text, goal, source_type, file_path)
            after = count_tokens(after_text)
            tasks += 1
            raw_total, before_total, after_total = raw_total + raw, before_total + before, after_total + after
            before_larger += before > raw
            after_larger += after > raw
            sent_raw += not pruned
    window = f", first {lines} lines" if lines else ""
    print(f"{tasks} tasks from {', '.join(p.name for p in paths)}{window}; tokens: {tokenizer().name}")
    for name, total, larger in (
        ("canonical", before_total, before_larger),
        ("model", after_total, after_larger),
    ):
        saved = 100.0 * (raw_total - total) / raw_total
        sums = f"raw {raw_total:>9,}  sent {total:>9,}  saved {saved:5.1f}%"
        print(f"{name:<10} {sums}  larger than raw: {larger}")
    print(f"model form: {sent_raw} of {tasks} sent raw (not 10 % cheaper pruned)")


if __name__ == "__main__":
    args = sys.argv[1:]
    window = int(args[1]) if args[:1] == ["--lines"] else None
    files = [Path(p) for p in args[2 if window else 0 :]]
    main(files or DEFAULT_SETS, window)
