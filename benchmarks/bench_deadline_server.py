"""The prune's deadline as a client of the real server sees it, for two servers side by side.

Each server (`--server PATH` of a `jeeves-mcp-pruner`, e.g. main's and this checkout's) is started
in turn on a fresh root and asked, through `/rpc` with a question:

- `read` of a 47 MB and a 60 MB log (failure on its last lines), `--repeat` times back to back:
  the time to each answer and the prune step's own (`pruner_duration_ms`) against the prune's
  budget (`JEEVES_PRUNER_TIMEOUT_MS`, default here 2000), and `/healthz`'s worst latency meanwhile
  (probed every 50 ms); then how many engine workers the server killed (`pruner.worker_killed`)
  and how many calls found none ready in time (`pruner.worker_not_ready`), from its log;
- `read` of one 32 KiB line of `.` in a `.R` file (a quadratic regex once took 22.6 s), and a small
  unrelated `read` sent 0.2 s after it: the time to each answer.

Target: each answer within budget + 0.5 s (the reading of the file before the prune aside: the
`read` of the 60 MB file without a question is printed as that anchor), /healthz under 1 s.

Usage: nice -n 10 .venv/bin/python benchmarks/bench_deadline_server.py \\
           --server /work/main/.venv/bin/jeeves-mcp-pruner --server .venv/bin/jeeves-mcp-pruner
A server given as `SRC=EXE` runs with SRC first on its PYTHONPATH: another checkout's code (the
baseline: `git worktree add --detach /tmp/before main`, then `--server /tmp/before=.venv/bin/...`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

BUDGET_MS = 2000
QUESTION = "Why did the worker fail?"
HEALTHZ_EVERY_S = 0.05


def write_log(path: Path, megabytes: int) -> None:
    line = "2026-11-28 12:00:00 INFO [worker-3] request id=123456 path=/api/v1/items/123456 status=200 ok\n"
    count = megabytes * 1_000_000 // len(line)
    with path.open("w") as out:
        for start in range(0, count, 10_000):
            out.write(line * min(10_000, count - start))
        out.write("2026-11-28 12:00:01 ERROR [worker-3] worker crashed: OOM while loading shard 17\n")


def call(client: httpx.Client, name: str, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    started = time.perf_counter()
    response = client.post("/rpc", json=body)
    took = time.perf_counter() - started
    result: dict[str, Any] = response.json()["result"]["structuredContent"]
    return took, result


def healthz_worst(base_url: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        while not stop.is_set():
            started = time.perf_counter()
            client.get("/healthz")
            out.append(time.perf_counter() - started)
            stop.wait(HEALTHZ_EVERY_S)


def pruning(result: dict[str, Any]) -> str:
    meta = result.get("pruning") or {}
    error = (meta.get("error") or {}).get("code")
    return f"applied={meta.get('applied')} reason={meta.get('reason')} error={error}"


def worker_events(log: Path) -> str:
    counts = dict.fromkeys(("pruner.worker_killed", "pruner.worker_not_ready"), 0)
    for line in log.read_text().splitlines():
        with contextlib.suppress(ValueError):
            event = json.loads(line).get("event")
            if event in counts:
                counts[event] += 1
    return ", ".join(f"{event} {count}" for event, count in counts.items())


def measure(server: str, root: Path, repeat: int) -> None:
    src, _, exe = server.rpartition("=")
    env = {**os.environ, "JEEVES_PRUNER_TIMEOUT_MS": str(BUDGET_MS)}
    if src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    argv = [exe, "--host", "127.0.0.1", "--port", "0", "--root", str(root)]
    log = root.parent / "server.log"
    with log.open("wb") as err:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env)
    try:
        assert process.stdout is not None
        port = json.loads(process.stdout.readline())["port"]
        base_url = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base_url, timeout=600) as client:
            for _ in range(300):  # workers up: a read during their start is answered without them
                _, warm = call(client, "read", {"path": "small.txt", "context_focus_question": "warm"})
                if not (warm.get("pruning") or {}).get("error"):
                    break
                time.sleep(0.1)
            took, _ = call(client, "read", {"path": "log60.log"})
            print(f"  read 60 MB, no question (the anchor): {took:6.2f} s")
            for name in ("log47.log", "log60.log"):
                for _ in range(repeat):
                    stop, latencies = threading.Event(), list[float]()
                    probe = threading.Thread(target=healthz_worst, args=(base_url, stop, latencies))
                    probe.start()
                    took, result = call(client, "read", {"path": name, "context_focus_question": QUESTION})
                    stop.set()
                    probe.join()
                    step_s = (result.get("pruning") or {}).get("pruner_duration_ms", 0) / 1000
                    print(
                        f"  read {name} with a question: {took:6.2f} s, its prune step {step_s:5.2f} s"
                        f"  {pruning(result)}  healthz worst {max(latencies) * 1000:6.0f} ms"
                    )
            answers: dict[str, float] = {}

            def dots() -> None:
                answers["dots"] = call(
                    client, "read", {"path": "dots.R", "context_focus_question": QUESTION}
                )[0]

            thread = threading.Thread(target=dots)
            thread.start()
            time.sleep(0.2)  # the small read arrives while the dots are being pruned
            with httpx.Client(base_url=base_url, timeout=600) as other:
                answers["small"] = call(
                    other, "read", {"path": "small.txt", "context_focus_question": QUESTION}
                )[0]
            thread.join()
            print(
                f"  read 32 KiB of '.' in a .R file: {answers['dots']:6.2f} s; a small read meanwhile: "
                f"{answers['small']:6.2f} s"
            )
    finally:
        process.kill()
        process.wait()
    print(f"  the server's log: {worker_events(log)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--server", action="append", required=True, help="a jeeves-mcp-pruner executable, or SRC=EXE"
    )
    parser.add_argument("--repeat", type=int, default=3, help="back-to-back reads of each log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jeeves-deadline-") as tmp:
        root = Path(tmp)
        write_log(root / "log47.log", 47)
        write_log(root / "log60.log", 60)
        (root / "dots.R").write_text("f <- function(x) x\n" + "." * 32768 + "\n")
        (root / "small.txt").write_text("the worker failed: OOM\n" * 50)
        print(f"machine: {os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for server in args.server:
            print(f"{server} (budget {BUDGET_MS} ms):", flush=True)
            measure(server, root, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
