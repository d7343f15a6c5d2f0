"""Where a `read` of a 47-60 MB log with a question spends its time, stage by stage (issue 29.10).

Each stage runs in this process as the server runs it, on logs whose failure is on the last line,
`--runs` times (medians printed):

- `read+spool`: `tools_exec.files.read_text` with the raw cap as `capture_bytes` (the tool's read:
  64 KiB chunks into the head-and-tail capture, spooled to disk past 1 MiB);
- `readback+decode`: `CapturedSource.read()` (what the engine's worker does first: the spool read
  back, head and tail joined and decoded);
- `split`: `split_lines` of that text (the engine's first step);
- `engine`: `prune_or_raise` with the tools' options and the 2 s budget (its own split included);
- `whole call`: `read` through the real server (`/rpc` `tools/call`), and the same `read` without a
  question (no prune) as the anchor.

Baselines in the same run: `open().read()` of the file (the disk) and `bytes.decode` of it.

Usage: .venv/bin/python benchmarks/bench_read_stages.py [--runs N] [--sizes 47,60]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import httpx

from mcp_pruner_server.pipeline.prune_step import tool_output_options
from mcp_pruner_server.pruning.engine import prune_or_raise
from mcp_pruner_server.pruning.text import split_lines
from tools_exec.files import read_text
from tools_exec.limits import RAW_CAP_BYTES

QUESTION = "Why did the worker fail?"
BUDGET_MS = 2000
LINE = "2026-11-28 12:00:00 INFO [worker-3] request id=123456 path=/api/v1/items/123456 status=200 ok\n"
FAILURE = "2026-11-28 12:00:01 ERROR [worker-3] worker crashed: OOM while loading shard 17\n"


def write_log(path: Path, megabytes: int) -> None:
    count = megabytes * 1_000_000 // len(LINE)
    with path.open("w") as out:
        for start in range(0, count, 10_000):
            out.write(LINE * min(10_000, count - start))
        out.write(FAILURE)


def median_s(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def stages(root: Path, name: str, runs: int) -> list[tuple[str, float]]:
    path = root / name
    rows = [("baseline: open().read()", median_s(path.read_bytes, runs))]
    data = path.read_bytes()
    rows.append(("baseline: bytes.decode", median_s(data.decode, runs)))
    del data

    def read() -> object:
        result = asyncio.run(read_text(root, name, max_output_bytes=1 << 20, capture_bytes=RAW_CAP_BYTES))
        assert result.capture is not None
        result.capture.close()
        return result

    rows.append(("read+spool", median_s(read, runs)))
    result = asyncio.run(read_text(root, name, max_output_bytes=1 << 20, capture_bytes=RAW_CAP_BYTES))
    assert result.capture is not None
    source = result.capture.source()
    rows.append(("readback+decode", median_s(source.read, runs)))
    text = source.read().text
    result.capture.close()
    rows.append(("split", median_s(lambda: split_lines(text), runs)))
    options = replace(tool_output_options(BUDGET_MS, (400, 8000)), path=name)
    engine = prune_or_raise(text, QUESTION, "logs", options, "prn_bench")
    rows.append(("engine", median_s(lambda: prune_or_raise(text, QUESTION, "logs", options, "prn_b"), runs)))
    stats = engine.stats
    warnings = list(engine.warnings)
    print(f"    engine: kept {stats.kept_lines} of {stats.original_lines} lines, warnings {warnings}")
    return rows


def through_server(root: Path, names: list[str], runs: int) -> dict[str, tuple[float, float, str]]:
    exe = Path(sys.executable).with_name("jeeves-mcp-pruner")
    env = {**os.environ, "JEEVES_MCP_PRUNER_TOKEN": "", "JEEVES_PRUNER_TIMEOUT_MS": str(BUDGET_MS)}
    argv = [str(exe), "--host", "127.0.0.1", "--port", "0", "--root", str(root)]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    out: dict[str, tuple[float, float, str]] = {}
    try:
        assert process.stdout is not None
        port = json.loads(process.stdout.readline())["port"]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:

            def call(name: str, question: str | None) -> dict[str, object]:
                arguments: dict[str, object] = {"path": name}
                if question:
                    arguments["context_focus_question"] = question
                body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                        "params": {"name": "read", "arguments": arguments}}  # fmt: skip
                answer = client.post("/rpc", json=body).json()
                result: dict[str, object] = answer["result"]["structuredContent"]
                return result

            call(names[0], QUESTION)  # warm: the engine's worker, the code paths
            for name in names:
                raw = median_s(functools.partial(call, name, None), runs)
                pruned = median_s(functools.partial(call, name, QUESTION), runs)
                meta = call(name, QUESTION)["pruning"]
                assert isinstance(meta, dict)
                out[name] = (raw, pruned, f"applied={meta.get('applied')} reason={meta.get('reason')}")
    finally:
        process.terminate()
        process.wait(30)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="47,60")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"machine: {os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="jeeves-read-stages-") as tmp:
        root = Path(tmp)
        names = []
        for megabytes in sizes:
            names.append(f"worker-{megabytes}mb.log")
            write_log(root / names[-1], megabytes)
        for name in names:
            print(f"  {name} ({(root / name).stat().st_size / 1e6:.1f} MB), medians of {args.runs}:")
            for stage, seconds in stages(root, name, args.runs):
                print(f"    {stage:<24} {seconds * 1000:8.0f} ms")
        for name, (raw, pruned, meta) in through_server(root, names, args.runs).items():
            print(f"  {name} through the server: read without a question {raw * 1000:.0f} ms, "
                  f"with one {pruned * 1000:.0f} ms (budget {BUDGET_MS} ms; {meta})")  # fmt: skip
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
