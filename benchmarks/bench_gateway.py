"""Gateway speed against its baselines, measured in the same run (not a timed test).

1. Masking a 10 MB JSON-RPC result vs `json.loads` of the same payload: median time and
   tracemalloc peak. Targets: ratio <= 1.5 for both. Two shapes:
   - `one_file`: a `tools/call` result holding one 10 MB text (a huge file read), in
     `content[0].text` — one string masked;
   - `listing`: ~100k small objects (a grep-like listing) plus a few long strings — the walk
     visits every node.
   Masking is measured as the gateway runs it (`mask_response` with the recoverable masker),
   with the middle kept in memory, and once more including `RecoveryStore.put`.
2. Overhead of a forwarded small call: p50 of `tools/call health` sent straight to a real
   upstream server (`/rpc`) vs through a second real server's gateway route. Target: <= 2 ms.
   Both servers are real `jeeves-mcp-pruner` processes on 127.0.0.1; the client keeps its
   connections alive, as an agent's does.

3. With `--memory`: the real server's RSS growth (sampled every 5 ms) while its gateway forwards
   one big upstream reply, a single string of `--memory-mib` MiB (64 by default), as JSON and
   as one SSE event, of ASCII and of 4-byte characters (emoji), from a local upstream. Target:
   ~2x the reply (its text and its parsed value: Python holds an emoji string at 4 bytes per
   character, as many bytes as its UTF-8, so 2x is the floor there too).

   `lines` is the same size of log lines (a `\n` escape every 35 bytes), `--server SRC=EXE`
   (repeatable) measures that server with another checkout's code first on its PYTHONPATH.

Usage: .venv/bin/python benchmarks/bench_gateway.py [--runs N] [--calls N] [--memory [--memory-mib N]
           [--server /tmp/before=.venv/bin/jeeves-mcp-pruner] [--server .venv/bin/jeeves-mcp-pruner]]
"""

from __future__ import annotations

import argparse
import gc
import http.server
import itertools
import json
import os
import socketserver
import statistics
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory

import httpx
import psutil

from mcp_pruner_server.gateway.masking import MaskOptions, mask_response
from mcp_pruner_server.gateway.service import RecoverableMasker
from mcp_pruner_server.recovery import RecoveryStore

TARGET_RATIO = 1.5
TARGET_OVERHEAD_MS = 2.0
PAYLOAD_BYTES = 10 * 1024 * 1024
# Big enough to hold any middle of the payload (the server default is 64 MiB too).
STORE_BYTES = 64 << 20
READY_TIMEOUT_S = 15.0
MEMORY_TARGET_RATIO = 2.0
RSS_SAMPLE_S = 0.005
WRITE_BYTES = 1 << 20  # the upstream writes its reply in 1 MiB pieces, as a real one streams


def one_file_payload() -> bytes:
    line = "2026-11-22T00:00:00Z INFO worker[3] processed batch 123456 in 42 ms (ok)\n"
    text = line * (PAYLOAD_BYTES // len(line))
    reply = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"content": [{"type": "text", "text": text}], "isError": False},
    }
    return json.dumps(reply).encode()


def listing_payload() -> bytes:
    matches: list[object] = []
    size = 0
    n = 0
    while size < PAYLOAD_BYTES - 100_000:
        item = {
            "path": f"src/pkg{n % 97}/module_{n}.py",
            "line": n % 5000,
            "column": None,
            "text": f"    value_{n} = compute(x)",
        }
        matches.append(item)
        size += 100
        n += 1
    blobs = ["b" * 20_000 for _ in range(4)]
    reply = {"jsonrpc": "2.0", "id": 1, "result": {"matches": matches, "blobs": blobs, "truncated": False}}
    return json.dumps(reply).encode()


def measure(fn: Callable[[], object], runs: int) -> tuple[float, int]:
    """(median seconds, max tracemalloc peak bytes) of `fn()` over `runs` runs."""
    times: list[float] = []
    peaks: list[int] = []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    for _ in range(2):  # tracemalloc slows allocation down: peaks are measured in separate runs
        gc.collect()
        tracemalloc.start()
        result = fn()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        del result
    return statistics.median(times), max(peaks)


def bench_masking(runs: int) -> None:
    options = MaskOptions()
    print(f"masking a 10 MB JSON result ({runs} runs; target ratio <= {TARGET_RATIO} time and memory)")
    print(f"  {'shape':<9} {'step':<22} {'median ms':>10} {'peak MiB':>9} {'x time':>7} {'x mem':>6}")
    for name, make in (("one_file", one_file_payload), ("listing", listing_payload)):
        payload = make()

        def parse_only(payload: bytes = payload) -> object:
            return json.loads(payload)

        base_t, base_m = measure(parse_only, runs)
        parsed = json.loads(payload)

        def mask_only(parsed: object = parsed) -> object:
            class _NoStore(RecoveryStore):
                def put(self, prune_id: str, text: str) -> bool:
                    self.kept = text  # the middle stays alive, as in the real store
                    return True

            masker = RecoverableMasker(_NoStore(3600, 10, STORE_BYTES), options)
            return mask_response(parsed, options.max_chars, masker), masker

        def mask_and_store(parsed: object = parsed) -> object:
            store = RecoveryStore(3600, 4096, STORE_BYTES)
            masker = RecoverableMasker(store, options)
            return mask_response(parsed, options.max_chars, masker), store

        rows = [("json.loads (baseline)", base_t, base_m)]
        rows += [("mask", *measure(mask_only, runs)), ("mask + store.put", *measure(mask_and_store, runs))]
        for step, seconds, peak in rows:
            print(
                f"  {name:<9} {step:<22} {seconds * 1000:10.2f} {peak / 2**20:9.2f}"
                f" {seconds / base_t:7.2f} {peak / base_m:6.2f}"
            )
        masked = mask_response(
            parsed, options.max_chars, RecoverableMasker(RecoveryStore(3600, 4096, STORE_BYTES), options)
        )
        print(
            f"  {name:<9} payload {len(payload) / 1024:.0f} KiB -> masked reply "
            f"{len(json.dumps(masked, ensure_ascii=False)) / 1024:.0f} KiB"
        )


@contextmanager
def server(root: Path, env: dict[str, str]) -> Iterator[str]:
    with server_process(root, env) as (url, _):
        yield url


@contextmanager
def server_process(root: Path, env: dict[str, str], server: str = "") -> Iterator[tuple[str, int]]:
    """A real server on 127.0.0.1: its URL and its pid. `server` is an executable, or `SRC=EXE`
    (SRC first on its PYTHONPATH); this venv's by default."""
    src, _, exe = server.rpartition("=")
    exe = exe or str(Path(sys.executable).with_name("jeeves-mcp-pruner"))
    full_env = {**os.environ, "JEEVES_MCP_PRUNER_TOKEN": "", **env}
    if src:
        full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, full_env.get("PYTHONPATH")]))
    process = subprocess.Popen(
        [exe, "--host", "127.0.0.1", "--port", "0", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=full_env,
    )
    try:
        assert process.stdout is not None
        ready = json.loads(process.stdout.readline())
        yield f"http://127.0.0.1:{ready['port']}", process.pid
    finally:
        process.terminate()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def bench_overhead(calls: int) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "health", "arguments": {}}}
    with TemporaryDirectory() as tmp, server(Path(tmp), {}) as upstream:
        env = {"JEEVES_GATEWAY_SERVERS": json.dumps({"up": f"{upstream}/rpc"})}
        with server(Path(tmp), env) as gateway, httpx.Client(timeout=10, trust_env=False) as client:
            targets = {"direct": f"{upstream}/rpc", "gateway": f"{gateway}/api/mcp-gateway/up/rpc"}
            samples: dict[str, list[float]] = {name: [] for name in targets}
            for url in targets.values():  # warm up connections and code paths
                for _ in range(50):
                    assert "result" in client.post(url, json=body).json()
            for _ in range(calls):  # interleaved, so machine noise hits both alike
                for name, url in targets.items():
                    started = time.perf_counter()
                    client.post(url, json=body).raise_for_status()
                    samples[name].append(time.perf_counter() - started)
    print(
        f"\nforwarded small call: tools/call health, {calls} calls each, interleaved "
        f"(target overhead <= {TARGET_OVERHEAD_MS} ms p50)"
    )
    p50 = {name: statistics.median(values) * 1000 for name, values in samples.items()}
    p90 = {name: statistics.quantiles(values, n=10)[-1] * 1000 for name, values in samples.items()}
    for name in targets:
        print(f"  {name:<8} p50 {p50[name]:6.3f} ms   p90 {p90[name]:6.3f} ms")
    print(f"  overhead p50 {p50['gateway'] - p50['direct']:6.3f} ms")


def big_reply(size: int, chars: str) -> bytes:
    """A `tools/call` response holding one string of `size` bytes of UTF-8."""
    if chars == "lines":
        text = ("2026-11-28 12:00:00 INFO worker ok\n" * (size // 35 + 1))[: size - size // 35]
    else:
        text = "x" * size if chars == "ascii" else "\U0001f600" * (size // 4)
    result = {"content": [{"type": "text", "text": text}]}
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, ensure_ascii=False).encode()


@contextmanager
def upstream_serving(frame: Callable[[bytes], bytes], big: bytes, content_type: str) -> Iterator[str]:
    """A local HTTP upstream answering a POST to `/big` with `frame(big)`, any other with a small
    reply framed alike (the warm-up call); yields its base URL."""
    small = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            body = frame(big if self.path == "/big" else small)
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            for at in range(0, len(body), WRITE_BYTES):
                self.wfile.write(body[at : at + WRITE_BYTES])

        def log_message(self, format: str, *args: object) -> None:
            return

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler) as upstream:
        threading.Thread(target=upstream.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{upstream.server_address[1]}"
        finally:
            upstream.shutdown()


def settle_rss(pid: int) -> None:
    """Wait (up to 10 s) until the server's RSS holds still for 0.5 s: what it still loads after
    its first calls is not the reply's cost."""
    process = psutil.Process(pid)
    deadline = time.monotonic() + 10
    last = process.memory_info().rss
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = process.memory_info().rss
        if abs(now - last) < 1 << 20:
            return
        last = now


def peak_rss_growth(pid: int, call: Callable[[], httpx.Response]) -> tuple[int, int, httpx.Response]:
    """(RSS before, peak RSS growth while `call()` runs, its response) of process `pid`."""
    process = psutil.Process(pid)
    before = process.memory_info().rss
    peak = before
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, process.memory_info().rss)
            time.sleep(RSS_SAMPLE_S)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        response = call()
    finally:
        done.set()
        sampler.join()
    return before, peak - before, response


def _as_json(body: bytes) -> bytes:
    return body


def _as_sse(body: bytes) -> bytes:
    return b"event: message\ndata: " + body + b"\n\n"


def bench_memory(mib: int, servers: list[str]) -> None:
    size = mib << 20
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {}}}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"\ngateway memory: one {mib} MiB string forwarded and masked, server RSS growth over a warm "
        f"server (target ~{MEMORY_TARGET_RATIO:.0f}x the reply); load {load}"
    )
    for server, chars, (transport, frame, content_type) in itertools.product(
        servers,
        ("ascii", "emoji", "lines"),
        (("json", _as_json, "application/json"), ("sse", _as_sse, "text/event-stream")),
    ):
        reply = big_reply(size, chars)
        with TemporaryDirectory() as tmp, upstream_serving(frame, reply, content_type) as url:
            upstreams = {"big": f"{url}/big", "small": f"{url}/small"}
            env = {
                "JEEVES_GATEWAY_SERVERS": json.dumps(upstreams),
                "JEEVES_GATEWAY_MAX_REPLY_BYTES": str(4 * size),
            }
            gateway = server_process(Path(tmp), env, server)
            with gateway as (base, pid), httpx.Client(timeout=300, trust_env=False) as client:
                client.post(f"{base}/api/mcp-gateway/small/rpc", json=request).raise_for_status()
                settle_rss(pid)
                route = f"{base}/api/mcp-gateway/big/rpc"

                def forward(route: str = route, client: httpx.Client = client) -> httpx.Response:
                    return client.post(route, json=request)

                before, growth, response = peak_rss_growth(pid, forward)
        ratio = growth / len(reply)
        print(
            f"  {server[-40:]:<40} {chars:<5} {transport:<4} reply {len(reply) / 2**20:5.1f} MiB: "
            f"HTTP {response.status_code}, answer {len(response.content) / 1024:5.1f} KiB; "
            f"RSS {before / 2**20:4.0f} MiB +{growth / 2**20:4.0f} MiB = {ratio:.1f}x the reply "
            f"({'ok' if ratio <= MEMORY_TARGET_RATIO + 0.25 else 'MISSED'})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--memory", action="store_true", help="only the big-reply memory figures")
    parser.add_argument("--memory-mib", type=int, default=64)
    parser.add_argument("--server", action="append", help="with --memory: an executable, or SRC=EXE")
    args = parser.parse_args()
    if args.memory:
        bench_memory(args.memory_mib, args.server or [""])
        return
    bench_masking(args.runs)
    bench_overhead(args.calls)


if __name__ == "__main__":
    main()
