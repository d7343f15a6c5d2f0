"""Every size (issue 13): the engine on 10k/100k/1M-line logs and the real server on big outputs.

    .venv/bin/python benchmarks/bench_sizes.py [--runs 5] [--skip-1m]

Prints, measured in this run on this machine (medians; the machine may be shared, so repeat):
- engine time to prune a 10k / 100k / 1M-line build log (the tool options: line numbers,
  markers, the default budget) next to `rg -c` counting a word over the same file, a
  same-run anchor for "one pass over the bytes"; targets 100k <= 200 ms, 1M <= 2 s;
- through the real server (`python -m mcp_pruner_server`, /rpc): `bash` and `read` of a
  120k-line (9 MB) log whose failure is its last line, with and without a question: whether
  the failure is in the reply and the reply's size (target: <= 128 KiB with a question;
  <= max_output_bytes + the marker line without);
- the server's RSS growth (over idle, sampled every 20 ms) while `bash` prints a 64 MiB log
  with a question (target <= 64 MiB), then 10 such calls at once while `/healthz` is polled
  (target p99 <= 50 ms). The engine workers' RSS is reported apart: they are other processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import percentile, spawn, stop, wait_ok
from build_log import FAILURE_LINE, QUESTION, build_log

from mcp_pruner_server.pipeline.prune_step import tool_output_options
from mcp_pruner_server.pruning.engine import prune

SIZES = (10_000, 100_000, 1_000_000)
TARGETS_MS = {100_000: 200.0, 1_000_000: 2000.0}
SERVER_LOG_LINES = 120_000
MAX_OUTPUT_BYTES = 1 << 20  # the tools' default
PRUNED_REPLY_TARGET = 128 << 10
BIG_OUTPUT_BYTES = 64 << 20
CONCURRENT_CALLS = 10
RSS_TARGET = 64 << 20
HEALTHZ_P99_TARGET_MS = 50.0
SAMPLE_S = 0.02  # RSS / healthz sampling period
TOKEN = "bench-sizes"


Samples = tuple[list[float], list[float]]


class EventLike(Protocol):
    def set(self) -> None: ...
    def is_set(self) -> bool: ...


def bench_engine(runs: int, sizes: tuple[int, ...], workdir: Path) -> None:
    print("engine (tool options: budget 300 lines / 8000 tokens, markers, numbers), median of", runs)
    rg = shutil.which("rg") or str(Path(sys.executable).with_name("rg"))
    options = replace(tool_output_options(600_000, (300, 8000)))
    for n in sizes:
        text = build_log(n)
        path = workdir / f"log_{n}.txt"
        path.write_text(text)
        engine_ms, rg_ms = [], []
        kept = ""
        for _ in range(runs):
            started = time.perf_counter()
            result = prune(text, QUESTION, "logs", options, "prn_bench")
            engine_ms.append((time.perf_counter() - started) * 1000)
            kept = result.pruned_text
            started = time.perf_counter()
            subprocess.run([rg, "-c", "webhook", str(path)], check=False, capture_output=True)
            rg_ms.append((time.perf_counter() - started) * 1000)
        engine, base = statistics.median(engine_ms), statistics.median(rg_ms)
        target = TARGETS_MS.get(n)
        verdict = (
            "" if target is None else f"  target <= {target:.0f} ms: {'ok' if engine <= target else 'MISSED'}"
        )
        print(
            f"  {n:>9,} lines {len(text) / 1e6:6.1f} MB  engine p50 {engine:8.1f} ms "
            f"({engine / n * 1000:5.2f} µs/line)  rg -c p50 {base:7.1f} ms  ratio {engine / base:5.1f}x  "
            f"failure kept: {FAILURE_LINE in kept}{verdict}"
        )
        del text


def _call(client: httpx.Client, url: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    response = client.post(f"{url}/rpc", json=body, headers={"Authorization": f"Bearer {TOKEN}"})
    response.raise_for_status()
    structured: dict[str, Any] = response.json()["result"]["structuredContent"]
    return structured


def bench_server(root: Path, big: bool) -> None:
    (root / "build.log").write_text(build_log(SERVER_LOG_LINES))
    env = {**os.environ, "JEEVES_MCP_PRUNER_TOKEN": TOKEN}
    argv = [
        sys.executable,
        "-m",
        "mcp_pruner_server",
        "--port",
        "0",
        "--root",
        str(root),
        "--log-format",
        "json",
    ]
    process, port, _ = spawn(argv, env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ok(f"{url}/healthz")
        with httpx.Client(timeout=300) as client:
            print(
                f"through the server: {SERVER_LOG_LINES:,} lines "
                f"({(root / 'build.log').stat().st_size / 1e6:.1f} MB)"
            )
            calls = {
                "bash + question": ("bash", {"cmd": "cat build.log", "context_focus_question": QUESTION}),
                "read + question": ("read", {"path": "build.log", "context_focus_question": QUESTION}),
                "bash, no question": ("bash", {"cmd": "cat build.log"}),
                "read, no question": ("read", {"path": "build.log"}),
            }
            for name, (tool, arguments) in calls.items():
                started = time.perf_counter()
                result = _call(client, url, tool, arguments)
                took = (time.perf_counter() - started) * 1000
                reply = (
                    result.get("stdout", "") + result.get("stderr", "")
                    if tool == "bash"
                    else result["content"]
                )
                size = len(reply.encode())
                meta = result["pruning"]
                limit = (
                    PRUNED_REPLY_TARGET if "question" in name and "no" not in name else MAX_OUTPUT_BYTES + 200
                )
                print(
                    f"  {name:<18} {took:8.1f} ms  reply {size / 1024:8.1f} KiB "
                    f"(limit {limit / 1024:.0f} KiB: "
                    f"{'ok' if size <= limit else 'MISSED'})  failure in reply: {FAILURE_LINE in reply}  "
                    f"pruning: attempted={meta['attempted']} applied={meta['applied']} "
                    f"reason={meta.get('reason')}"
                )
            if big:
                bench_big_outputs(client, url, process.pid, root)
    finally:
        stop(process)


def _rss_family(pid: int) -> tuple[int, int]:
    """(server RSS, sum of its children's RSS: the engine workers and any bash child)."""
    server = psutil.Process(pid)
    children = 0
    for child in server.children(recursive=True):
        try:
            children += child.memory_info().rss
        except psutil.Error:
            continue
    return server.memory_info().rss, children


def bench_big_outputs(client: httpx.Client, url: str, pid: int, root: Path) -> None:
    lines = BIG_OUTPUT_BYTES // 75
    (root / "big.log").write_text(build_log(lines))
    size = (root / "big.log").stat().st_size
    arguments = {"cmd": "cat big.log", "context_focus_question": QUESTION}
    _call(client, url, "bash", {"cmd": "true", "context_focus_question": QUESTION})  # warm the workers
    idle, _ = _rss_family(pid)
    peak, peak_children = idle, 0
    stop_sampling = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_children
        while not stop_sampling.is_set():
            try:
                server, children = _rss_family(pid)
            except psutil.Error:
                return
            peak, peak_children = max(peak, server), max(peak_children, children)
            time.sleep(SAMPLE_S)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    result = _call(client, url, "bash", arguments)
    took = (time.perf_counter() - started) * 1000
    stop_sampling.set()
    sampler.join()
    growth = peak - idle
    print(f"one {size / 2**20:.0f} MiB output ({lines:,} lines), bash + question: {took:.0f} ms")
    print(
        f"  server RSS idle {idle / 2**20:.0f} MiB, peak {peak / 2**20:.0f} MiB: "
        f"growth {growth / 2**20:.0f} MiB "
        f"(target <= {RSS_TARGET >> 20} MiB: {'ok' if growth <= RSS_TARGET else 'MISSED'}); "
        f"children (engine workers, bash) peak {peak_children / 2**20:.0f} MiB"
    )
    print(
        f"  failure in reply: {FAILURE_LINE in result['stdout']}  "
        f"reply {len(result['stdout'].encode()) / 1024:.1f} KiB"
        f"  pruning: applied={result['pruning']['applied']} reason={result['pruning'].get('reason')}"
        f" error={result['pruning'].get('error')}"
    )
    # /healthz is polled from another process: no thread of this one (the 10 clients) shares its
    # GIL, and its own lateness (time it was not scheduled) is reported to show it was not starved
    context = multiprocessing.get_context("spawn")
    done, ready, results = context.Event(), context.Event(), context.Queue()
    poller = context.Process(target=poll_healthz, args=(url, done, ready, results))
    poller.start()
    ready.wait(timeout=60)
    outcomes: list[dict[str, Any]] = []

    def one() -> None:
        with httpx.Client(timeout=600) as own:
            outcomes.append(_call(own, url, "bash", arguments))

    started = time.perf_counter()
    workers = [threading.Thread(target=one) for _ in range(CONCURRENT_CALLS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    took = time.perf_counter() - started
    done.set()
    latencies, lateness = results.get(timeout=60)
    poller.join()
    p99 = percentile(latencies, 0.99)
    applied = sum(1 for o in outcomes if o["pruning"]["applied"])
    found = sum(1 for o in outcomes if FAILURE_LINE in o["stdout"])
    print(
        f"{CONCURRENT_CALLS} such calls at once: {took:.1f} s; /healthz n={len(latencies)} "
        f"p50 {statistics.median(latencies):.1f} ms p99 {p99:.1f} ms max {max(latencies):.1f} ms "
        f"(target p99 <= {HEALTHZ_P99_TARGET_MS:.0f} ms: "
        f"{'ok' if p99 <= HEALTHZ_P99_TARGET_MS else 'MISSED'}); "
        f"pruned {applied}/{CONCURRENT_CALLS}, failure in reply {found}/{CONCURRENT_CALLS}"
    )
    print(
        f"  poller (own process) woke late by p99 {percentile(lateness, 0.99):.1f} ms "
        f"(its sleep overshoot: the machine's scheduling delay, not the server's); load {_load()}"
    )


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def poll_healthz(
    url: str,
    done: EventLike,
    ready: EventLike,
    results: multiprocessing.Queue[tuple[list[float], list[float]]],
) -> None:
    """GET /healthz every `SAMPLE_S` until `done`; puts (latencies ms, sleep overshoots ms)."""
    latencies: list[float] = []
    lateness: list[float] = []
    with httpx.Client(timeout=10) as health:
        health.get(f"{url}/healthz")  # connected before the clock starts
        ready.set()
        while not done.is_set():
            started = time.perf_counter()
            health.get(f"{url}/healthz")
            latencies.append((time.perf_counter() - started) * 1000)
            slept = time.perf_counter()
            time.sleep(SAMPLE_S)
            lateness.append((time.perf_counter() - slept - SAMPLE_S) * 1000)
    results.put((latencies, lateness))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-1m", action="store_true", help="engine on 10k/100k only")
    parser.add_argument("--skip-big", action="store_true", help="no 64 MiB output through the server")
    parser.add_argument("--skip-engine", action="store_true", help="the server part only")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load {_load()} (shared: figures are noisy, repeat them)")
    with tempfile.TemporaryDirectory(prefix="bench-sizes-") as tmp:
        sizes = SIZES[:2] if args.skip_1m else SIZES
        if not args.skip_engine:
            bench_engine(args.runs, sizes, Path(tmp))
        bench_server(Path(tmp), big=not args.skip_big)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
