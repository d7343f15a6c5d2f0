"""Digest of the engine's output on every task of harness task files, to prove a change is neutral.

    python benchmarks/engine_digest.py ../shared/eval/dev_*.jsonl > before.json
    ... change the engine ...
    python benchmarks/engine_digest.py ... > after.json && diff before.json after.json

Each task is pruned with the harness's options (`min_keep_lines=0`, no markers) at three ratios,
and with the tools' options (line numbers, markers); one SHA-256 per task and setting. A task
with a `path` (`lang_sets.py`'s) is also pruned with the tools' options and its path, as `read`
gives it: the language then comes from the extension, not from the lines.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from typing import Any

from mcp_pruner_server.pipeline.prune_step import tool_output_options
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

# The harness's sweep (its default ratio is 0.8) and the tools' own options.
RATIOS = (0.5, 0.8, 0.95)
# Generous: the digest compares outputs, never timeouts (the machine is shared).
TIMEOUT_MS = 600_000


def settings() -> dict[str, PruneOptions]:
    out = {
        f"harness@{r}": PruneOptions(
            max_prune_ratio=r, min_keep_lines=0, timeout_ms=TIMEOUT_MS, include_markers=False
        )
        for r in RATIOS
    }
    out["tool"] = replace(tool_output_options(TIMEOUT_MS), timeout_ms=TIMEOUT_MS)
    return out


def digest(task: dict[str, Any], options: PruneOptions) -> str:
    """The first 16 hex digits of the SHA-256 of the task's pruned text and warnings."""
    result = prune(task["text"], task["goal_hint"], task["source_type"], options, "prn_digest")
    body = json.dumps([result.pruned_text, list(result.warnings)], ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def main(paths: list[str]) -> int:
    digests: dict[str, str] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            tasks = [json.loads(line) for line in handle if line.strip()]
        for task in tasks:
            for name, options in settings().items():
                digests[f"{task['id']}|{name}"] = digest(task, options)
            if task.get("path"):
                with_path = replace(settings()["tool"], path=task["path"])
                digests[f"{task['id']}|tool+path"] = digest(task, with_path)
    json.dump(digests, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
