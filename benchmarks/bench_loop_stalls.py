"""`/healthz` while the server does big JSON work, against `/healthz` at rest in the same run.

The real server (`--server PATH` of a `jeeves-mcp-pruner`, e.g. main's and this checkout's, each
in turn) is probed every 10 ms from its own process while it answers, one case at a time:

- `prune_14mb`: `POST /prune` with a 14 MB body (SWE-Pruner's format, code in one string);
- `recover_500`: `recover_text` on `/rpc` of 500 ranges each the whole stored text (66,000 chars),
  an answer just under the 32 Mi-character cap;
- `gateway_60mb`: a `tools/call` through the gateway whose upstream answers with a 60 MB
  result (one text).

Printed per case: the call's time, and `/healthz` n / p50 / max (ms) during it, next to the same
at rest. The runner's health probe gives up after 1 s; the target is max well under it.

Usage: .venv/bin/python benchmarks/bench_loop_stalls.py --server .venv/bin/jeeves-mcp-pruner \\
           [--server /work/main/.venv/bin/jeeves-mcp-pruner] [--server /tmp/b=.venv/bin/jeeves-mcp-pruner]
(`SRC=EXE`: that server with another checkout's code first on its PYTHONPATH, the baseline.)
"""

from __future__ import annotations

import argparse
import http.server
import json
import multiprocessing
import os
import socketserver
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx

PROBE_EVERY_S = 0.01
REST_S = 2.0
READY_TIMEOUT_S = 30.0
LINE = '    result = compute_value(alpha, "beta", gamma)  # a comment\n'
RECOVER_TEXT_CHARS = 65_880
RECOVER_RANGES = 500
GATEWAY_REPLY_BYTES = 60_000_000
WRITE_BYTES = 1 << 20


def probe(url: str, ready: Event, done: Event, out: multiprocessing.Queue[list[tuple[float, float]]]) -> None:
    """GET /healthz every `PROBE_EVERY_S` until `done`; puts (monotonic start, latency ms) samples."""
    samples: list[tuple[float, float]] = []
    with httpx.Client(timeout=30, trust_env=False) as client:
        client.get(f"{url}/healthz")
        ready.set()
        while not done.is_set():
            started = time.monotonic()
            client.get(f"{url}/healthz").raise_for_status()
            samples.append((started, (time.monotonic() - started) * 1000))
            done.wait(PROBE_EVERY_S)
    out.put(samples)


@contextmanager
def upstream(reply: bytes) -> Iterator[str]:
    """A local MCP-like upstream answering every POST with `reply`, written 1 MiB at a time."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(reply)))
            self.end_headers()
            for at in range(0, len(reply), WRITE_BYTES):
                self.wfile.write(reply[at : at + WRITE_BYTES])

        def log_message(self, format: str, *args: object) -> None:
            return

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
        finally:
            server.shutdown()


@contextmanager
def server_process(server: str, root: Path, env: dict[str, str]) -> Iterator[str]:
    """`server` is an executable, or `SRC=EXE`: SRC first on its PYTHONPATH (another checkout's code)."""
    src, _, exe = server.rpartition("=")
    argv = [exe, "--host", "127.0.0.1", "--port", "0", "--root", str(root)]
    full_env = {**os.environ, "JEEVES_MCP_PRUNER_TOKEN": "", **env}
    if src:
        full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, full_env.get("PYTHONPATH")]))
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=full_env
    )
    try:
        assert process.stdout is not None
        ready = json.loads(process.stdout.readline())
        yield f"http://127.0.0.1:{ready['port']}"
    finally:
        process.terminate()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def rpc(name: str, arguments: dict[str, object]) -> dict[str, object]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def cases(client: httpx.Client, url: str) -> dict[str, Callable[[], httpx.Response]]:
    code = LINE * (14_000_000 // len(LINE))
    prune_body = json.dumps({"query": "where is gamma computed?", "code": code}).encode()
    stored = (LINE * (RECOVER_TEXT_CHARS // len(LINE) + 1))[:RECOVER_TEXT_CHARS]
    answer = client.post(f"{url}/prune", json={"query": "gamma", "code": stored}).json()
    ranges = [{"start_line": 1, "end_line": 10**6}] * RECOVER_RANGES
    recover = rpc(
        "recover_text", {"prune_id": answer["prune_id"], "ranges": ranges, "include_line_numbers": False}
    )
    through_gateway = rpc("read_text_file", {"path": "big.txt"})
    headers = {"content-type": "application/json"}
    return {
        "prune_14mb": lambda: client.post(f"{url}/prune", content=prune_body, headers=headers),
        "recover_500": lambda: client.post(f"{url}/rpc", json=recover),
        "gateway_60mb": lambda: client.post(f"{url}/api/mcp-gateway/big/rpc", json=through_gateway),
    }


def summary(latencies: list[float]) -> str:
    if not latencies:
        return "n=0"
    return f"n={len(latencies):4d} p50 {statistics.median(latencies):7.1f} max {max(latencies):7.1f}"


def measure(server: str, root: Path, gateway_url: str) -> None:
    env = {
        "JEEVES_GATEWAY_SERVERS": json.dumps({"big": gateway_url}),
        "JEEVES_GATEWAY_MAX_REPLY_BYTES": str(2 * GATEWAY_REPLY_BYTES),
    }
    with server_process(server, root, env) as url, httpx.Client(timeout=300, trust_env=False) as client:
        calls = cases(client, url)
        for call in calls.values():  # warm: the code paths and the engine's workers
            call()
        context = multiprocessing.get_context("spawn")
        ready, done, out = context.Event(), context.Event(), context.Queue()
        prober = context.Process(target=probe, args=(url, ready, done, out))
        prober.start()
        ready.wait(READY_TIMEOUT_S)
        phases: list[tuple[str, float, float, float, int]] = []
        started = time.monotonic()
        time.sleep(REST_S)
        phases.append(("at rest", started, time.monotonic(), 0.0, 200))
        for name, call in calls.items():
            started = time.monotonic()
            response = call()
            took = time.monotonic() - started
            phases.append((name, started, time.monotonic(), took, response.status_code))
        done.set()
        samples = out.get(timeout=READY_TIMEOUT_S)
        prober.join()
    print(f"server {server} (load {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"  {'case':<13} {'call s':>7} {'HTTP':>4}  /healthz ms")
    for name, begin, end, took, status in phases:
        during = [latency for at, latency in samples if begin <= at < end]
        print(f"  {name:<13} {took:7.2f} {status:>4}  {summary(during)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", action="append", required=True, help="an executable, or SRC=EXE")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    text = "2026-11-28 12:00:00 INFO worker ok\n" * (GATEWAY_REPLY_BYTES // 35)
    reply = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": text}]}})
    with tempfile.TemporaryDirectory(prefix="jeeves-stalls-") as tmp, upstream(reply.encode()) as gateway_url:
        for server in args.server:
            measure(server, Path(tmp), gateway_url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
