"""The ledger under load (issue 31): many stdio servers writing one ledger at once. Not a test.

    nice -n 10 .venv/bin/python benchmarks/bench_ledger.py [--servers 20] [--calls 500] [--rounds 1]
        [--pause-ms 0] [--before TREE]...

Each round runs the same load with the ledger off (`JEEVES_LEDGER=0`, the baseline), then on
with the code at each `--before TREE` (a checkout of other code, labelled by its directory's
name: `git worktree add --detach /tmp/ledger-before main`), then on with the code of the
checkout this file is in ("this"; a copy of the checkout, made before a run, measures a
snapshot while its source is edited), each into a fresh state directory: each code's servers
and probe import it through PYTHONPATH and run in the project's directory (from a checkout,
`-m` would import that checkout's code). The machine's load average is printed with each phase.
In each phase: `--servers` stdio servers
(`python -m mcp_pruner_server --stdio`, real processes) each answer `--calls` `tools/call`s back
to back (or `--pause-ms` apart: an agent's turn between calls, so the load leaves the cores
some idle time), all servers at once. The calls alternate a `read` of a 200-line file (the same
file each time: a re-read) and a `bash` printing that file with a word replaced by the server's
and the call's number (`sed`: every line new, never seen by any writer), so every row has a few
thousand tokens for the writer process to count, half of them on lines it counted before (the
writer remembers blocks of lines: `runner.bench.tokens.BlockCounts`). The client is a bare
newline-delimited JSON-RPC writer
over the pipes (the stdio transport's framing), so the client's own cost stays out of the
latencies.

What the ledger adds to a call is measured where it happens: a probe server in a process of its
own (same calls, every other one pruned) times `ToolDispatcher._to_ledger` (the record, its
pickle, the write into the writer process's pipe) on each call, first alone, then while the
stdio servers run: wall time and the calling thread's CPU time (wall minus the waits for a
core or the GIL, which on a shared two-core machine are the machine's, not the ledger's). The
probe runs in every phase, the ledger off too, so that each phase has the same load but the
ledger's. It is not in the client's process: it was until this version, and its pruning then
stalled the client's event loop in the ledger-on phase only, milliseconds added to the round
trips that were not the ledger's. Every server's writer is its own process
(`mcp_pruner_server/ledger/writer.py`): its counting and SQLite compete with the servers for
the two cores, which the round trips off/on show.

Printed: the request-path cost; per-call round-trip latency p50/p99 of the stdio servers off
and on and their differences; the writer processes' CPU per row (their `ledger.writer_stopped`
events: from their first row to their exit, start-up apart) and the CPU a call's path spends
(the probe's p50), whose sum is the ledger's CPU per call; and how much of the writers' CPU
was used while the calls ran (what calls on busy cores wait for, whatever the noise of a
shared machine does to the round trips: the rest waited for the load to end); whether every row
is in the ledger (rows per session), counted once every writer exited (a writer may outlive
its server, writing what it was handed at its shutdown: how long after the servers' EOF the
servers and the writers exited is printed); any `ledger.unavailable` / "database is locked"
line or error answer. The phases run in this order in odd rounds and backwards in even ones
(the machine's load drifts).
Target: every row present, no error, and at most 1 ms p50 and p99 added to a call: the wall
time on the call's path alone; under the load, the CPU the call's path spends (its wall time
there is that CPU plus the waits for a core, which the control, the same CPU touching no
ledger, shows to be the machine's: tens of ms at p99 with 20 servers on 2 cores), and the
writers' CPU while the calls ran at most 100 us per call (what they take from calls on busy
cores). The round trips' on - off difference is printed next to it, not a pass/fail figure:
on a shared machine it moves by tens of ms between phases (run several rounds; `--pause-ms`
gives the calls an agent's pace).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

SPAWN_TIMEOUT_S = 120.0  # twenty servers importing at once on a shared two-core machine
CALL_TIMEOUT_S = 60.0
PROBE_SESSION = "bench-request-path"
MAX_ADDED_MS = 1.0  # the bound on what the ledger adds to a call (p99; the brief's p50 too)
MAX_WRITERS_CPU_DURING_CALLS_US = 100.0  # per call: the writers leave busy cores to the calls
PROBE_FLUSH_TIMEOUT_S = 120.0
SPAWN_AT_ONCE = 4  # twenty imports at once on two cores would only time each other out
FILE_LINES = 200
# Calls each server answers before the clock starts (first-call imports, the first bash spawn);
# they are in the ledger too.
WARMUP_CALLS = 10
WARMUP_SETTLE_S = 15.0
# The writers may outlive their servers (on busy cores), writing what they were handed.
WRITERS_EXIT_TIMEOUT_S = 300.0
WRITER_MODULE = "mcp_pruner_server.ledger.writer"  # the writer processes' command line, any version
THIS_TREE = Path(__file__).resolve().parents[1]


def make_project(base: Path) -> Path:
    root = base / "project"
    root.mkdir()
    lines = [
        f"def function_{i}(value):\n    return value * {i}  # line {2 * i + 2}\n"
        for i in range(FILE_LINES // 2)
    ]
    (root / "module.py").write_text("".join(lines), encoding="utf-8")
    return root


def call_arguments(i: int, caller: str) -> tuple[str, dict[str, object]]:
    """The `i`th call of `caller`: a re-read of the same file, or the file's lines made new."""
    if i % 2 == 0:
        return "read", {"path": "module.py"}
    return "bash", {"cmd": f"sed s/value/value_{caller}_{i}/g module.py"}


class Server:
    """One stdio server and a bare JSON-RPC client on its pipes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0

    async def request(
        self, method: str, params: dict[str, object], wait_s: float = CALL_TIMEOUT_S
    ) -> dict[str, object]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        await self.process.stdin.drain()
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), wait_s)
            if not line:
                raise RuntimeError("server closed stdout")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return dict(answer)

    async def notify(self, method: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        await self.process.stdin.drain()


async def start_server(root: Path, env: dict[str, str], stderr_path: Path) -> Server:
    stderr = stderr_path.open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcp_pruner_server", "--stdio", "--root", str(root),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr, env=env,
        cwd=root,  # not this checkout: `-m` puts the working directory first on the import path
    )  # fmt: skip
    stderr.close()
    server = Server(process)
    init: dict[str, object] = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench-ledger", "version": "1"},
    }
    await server.request("initialize", init, SPAWN_TIMEOUT_S)
    await server.notify("notifications/initialized")
    return server


async def drive(
    server: Server, caller: str, calls: int, start: asyncio.Event, pause_s: float
) -> tuple[list[float], int]:
    """`calls` tool calls, `pause_s` apart; (latencies in ms, error answers)."""
    for i in range(-WARMUP_CALLS, 0):
        name, arguments = call_arguments(i, caller)
        await server.request("tools/call", {"name": name, "arguments": arguments})
    await start.wait()
    latencies: list[float] = []
    errors = 0
    for i in range(calls):
        name, arguments = call_arguments(i, caller)
        began = time.perf_counter()
        answer = await server.request("tools/call", {"name": name, "arguments": arguments})
        latencies.append((time.perf_counter() - began) * 1000)
        result = answer.get("result")
        if "error" in answer or not isinstance(result, dict) or result.get("isError"):
            errors += 1
        if pause_s:
            await asyncio.sleep(pause_s)  # the agent's turn (load shaping, not synchronization)
    return latencies, errors


async def request_path_probe(root: Path, calls: int) -> None:
    """The probe process (`--probe`): a server in this process, into the same ledger as the stdio
    servers (its settings from the environment); how long each call spends handing its record to
    the ledger (`ToolDispatcher._to_ledger`: the note, the record, the pipe), the only work the
    ledger adds to a call's path. Every other call is pruned (with a question). Says `ready` on
    stdout after its warm-up calls are written, starts at a line on stdin, ends with its times."""
    from mcp_pruner_server.server_parts import build_parts
    from mcp_pruner_server.settings import ServerSettings

    env = {k: v for k, v in os.environ.items() if k.startswith(("JEEVES_LEDGER", "XDG_STATE_HOME"))}
    env["JEEVES_RUN_ID"] = PROBE_SESSION
    parts = build_parts(ServerSettings(root=root), env=env, engine_processes=False)
    dispatcher = parts.dispatcher
    handing = dispatcher._to_ledger
    times = PathTimes([], [], [])

    def timed(note: Any, reply: Any) -> None:
        began, began_cpu = time.perf_counter(), time.thread_time()
        handing(note, reply)
        times.wall.append((time.perf_counter() - began) * 1000)
        times.cpu.append((time.thread_time() - began_cpu) * 1000)
        began = time.perf_counter()
        spin(times.cpu[-1] / 1000)  # as much CPU as the ledger's part of this call just took
        times.control.append((time.perf_counter() - began) * 1000)

    def arguments_of(i: int) -> tuple[str, dict[str, object]]:
        name, arguments = call_arguments(i, "probe")
        if name == "read":
            arguments = {**arguments, "context_focus_question": "Which function multiplies by 7?"}
        return name, arguments

    # As the stdio servers: warm-up calls first, and their rows written (the writer process's first
    # batch imports the tokenizer, ~0.5 s of a core, once per process).
    for i in range(-WARMUP_CALLS, 0):
        await dispatcher.call(*arguments_of(i))
    if parts.ledger is not None:
        parts.ledger.flush(PROBE_FLUSH_TIMEOUT_S)
    dispatcher._to_ledger = timed  # type: ignore[method-assign]
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    for i in range(calls):
        await dispatcher.call(*arguments_of(i))
    await parts.service.aclose()
    if parts.ledger is not None:
        parts.ledger.flush(PROBE_FLUSH_TIMEOUT_S)
    parts.close_ledger()
    print(json.dumps({"wall": times.wall, "cpu": times.cpu, "control": times.control}), flush=True)


class Probe:
    """The probe process, driven from the bench's process."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, root: Path, calls: int, env: dict[str, str]) -> Probe:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--probe", str(root), "--calls", str(calls),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=root,
        )  # fmt: skip
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), SPAWN_TIMEOUT_S + PROBE_FLUSH_TIMEOUT_S)
        if line.strip() != b"ready":
            raise RuntimeError(f"the probe did not start: {line!r}")
        return cls(process)

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"go\n")

    async def times(self) -> PathTimes:
        out, _ = await self.process.communicate()
        data = json.loads(out)
        return PathTimes(data["wall"], data["cpu"], data["control"])


@dataclass(frozen=True)
class PathTimes:
    """Per timed call, in ms: the wall time of `_to_ledger`, the calling thread's CPU time in it,
    and the wall time of a same-run control: a spin of the same CPU time that touches no
    ledger (what any section that long waits for a core or the GIL on this machine, now)."""

    wall: list[float]
    cpu: list[float]
    control: list[float]

    @property
    def wall_p99(self) -> float:
        return sorted(self.wall)[int(len(self.wall) * 0.99) - 1]

    @property
    def within_bound(self) -> bool:
        return statistics.median(self.wall) <= MAX_ADDED_MS and self.wall_p99 <= MAX_ADDED_MS

    @property
    def cpu_within_bound(self) -> bool:
        """Under load: the CPU the path spends (its wall time adds the machine's waits)."""
        cpu_p99 = sorted(self.cpu)[int(len(self.cpu) * 0.99) - 1]
        return statistics.median(self.cpu) <= MAX_ADDED_MS and cpu_p99 <= MAX_ADDED_MS

    def show(self) -> None:
        print(f"      {'wall':<25} {percentiles(self.wall)}")
        print(f"      {'CPU of the calling thread':<25} {percentiles(self.cpu)}")
        control = "control (same CPU, no ledger)"
        print(f"      {control:<25} {percentiles(self.control)}")


@dataclass(frozen=True)
class WriterCpu:
    """The stdio servers' writer processes, from their `ledger.writer_stopped` events."""

    processes: int
    rows: int
    rows_cpu_s: float  # from their first row to their exit
    cpu_s: float  # start-up included

    def show(self, path: PathTimes) -> None:
        if not self.processes:
            print("    writer processes: no `ledger.writer_stopped` event (older code)")
            return
        per_row = self.rows_cpu_s / self.rows * 1e6 if self.rows else 0.0
        start = (self.cpu_s - self.rows_cpu_s) / self.processes if self.processes else 0.0
        on_path = statistics.median(path.cpu) * 1000
        total = on_path + per_row
        print(
            f"    writer processes: {self.processes}, CPU per row {per_row:.0f} us "
            f"(start-up {start:.2f} s per process); the ledger's CPU per call: "
            f"{on_path:.0f} us on the call's path + {per_row:.0f} us in the writer = {total:.0f} us"
        )


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages (others share it: noise to read the figures by)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def spin(cpu_s: float) -> None:
    """Burn `cpu_s` of this thread's CPU time."""
    end = time.thread_time() + cpu_s
    while time.thread_time() < end:
        pass


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[max(int(len(ordered) * 0.99) - 1, 0)]
    p50, top = statistics.median(ordered), ordered[-1]
    return f"p50 {p50 * 1000:.0f} us  p99 {p99 * 1000:.0f} us  max {top * 1000:.0f} us"


def phase_env(state: Path, ledger_on: bool, code: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JEEVES_LEDGER", "PYTHONPATH"))}
    env |= {"XDG_STATE_HOME": str(state), "JEEVES_LEDGER": "1" if ledger_on else "0"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    return env


async def quiet_probe(root: Path, state: Path, calls: int, code: Path | None) -> PathTimes:
    """The probe alone (no stdio servers running): the request path without the load."""
    probe = await Probe.start(root, calls, phase_env(state, True, code))
    probe.go()
    return await probe.times()


async def run_phase(
    root: Path, state: Path, servers: int, calls: int, ledger_on: bool, pause_s: float, code: Path | None
) -> dict[str, object]:
    env = phase_env(state, ledger_on, code)
    logs = state / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    spawning = asyncio.Semaphore(SPAWN_AT_ONCE)

    async def start(i: int) -> Server:
        async with spawning:
            return await start_server(root, env, logs / f"server{i}.err")

    started = await asyncio.gather(*(start(i) for i in range(servers)))
    go = asyncio.Event()
    tasks = [asyncio.create_task(drive(s, str(n), calls, go, pause_s)) for n, s in enumerate(started)]
    probe = await Probe.start(root, calls, env)
    await asyncio.sleep(WARMUP_SETTLE_S)  # the warm-up calls, and their rows, are written first
    writers = writer_processes(started)
    writers_cpu = cpu_s(writers)
    wall = time.perf_counter()
    go.set()
    probe.go()
    results = await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall
    writers_cpu = cpu_s(writers) - writers_cpu
    times = await probe.times()
    ended = time.perf_counter()
    for server in started:  # EOF: the way an agent stops a stdio server; it writes its queue first
        assert server.process.stdin is not None
        server.process.stdin.close()
    codes = await asyncio.gather(*(s.process.wait() for s in started))
    servers_exited_s = time.perf_counter() - ended
    # a writer may outlive its server, writing what it was handed: the rows are counted after it
    await asyncio.to_thread(psutil.wait_procs, writers, WRITERS_EXIT_TIMEOUT_S)
    writers_exited_s = time.perf_counter() - ended
    latencies = sorted(x for lat, _ in results for x in lat)
    lines = [
        line
        for path in logs.glob("*.err")
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    ]
    warnings = sum(
        1
        for line in lines
        if "ledger.unavailable" in line or "database is locked" in line or "ledger.internal_error" in line
    )
    stopped = [json.loads(line).get("data", {}) for line in lines if "ledger.writer_stopped" in line]
    return {
        "p50": statistics.median(latencies),
        "p99": latencies[int(len(latencies) * 0.99) - 1],
        "calls": len(latencies),
        "errors": sum(e for _, e in results),
        "exit_codes": sorted(set(codes)),
        "warnings": warnings,
        "wall_s": wall,
        "path": times,
        "writers_cpu_during_calls_s": writers_cpu,
        "servers_exited_s": servers_exited_s,
        "writers_exited_s": writers_exited_s,
        "writers": WriterCpu(
            len(stopped),
            sum(int(d.get("written", 0)) for d in stopped),
            sum(float(d.get("rows_cpu_s", 0.0)) for d in stopped),
            sum(float(d.get("cpu_s", 0.0)) for d in stopped),
        ),
    }


def writer_processes(servers: list[Server]) -> list[psutil.Process]:
    """The stdio servers' ledger writer processes (their other children, the engine's workers
    and the process-group watchdog, are not the ledger's)."""
    writers = []
    for server in servers:
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(server.process.pid).children():
                with contextlib.suppress(psutil.Error):
                    if WRITER_MODULE in child.cmdline():
                        writers.append(child)
    return writers


def cpu_s(processes: list[psutil.Process]) -> float:
    """The CPU time `processes` have used so far (those that exited: none)."""
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def ledger_rows(state: Path) -> dict[str, int]:
    path = state / "jeeves" / "ledger.sqlite3"
    if not path.exists():
        return {}
    with sqlite3.connect(path) as conn:
        return {
            str(s): int(n) for s, n in conn.execute("SELECT session, count(*) FROM calls GROUP BY session")
        }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--pause-ms", type=float, default=0.0, help="between a server's calls")
    parser.add_argument(
        "--before", type=Path, action="append", default=[],
        help="a checkout of other code, measured too (repeatable; labelled by its directory's name)",
    )  # fmt: skip
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)  # the probe process's root
    args = parser.parse_args()
    from mcp_pruner_server.logs import configure_logging

    # the in-process server's events (the stdio servers' go to their own stderr files)
    configure_logging("json", stream=open(os.devnull, "w"))  # noqa: SIM115  # for the whole run
    if args.probe is not None:
        asyncio.run(request_path_probe(args.probe, args.calls))
        return 0
    # "this": the checkout this file is in (so that a copy of it, elsewhere, measures its own tree)
    codes: dict[str, Path | None] = {tree.resolve().name: tree.resolve() for tree in args.before}
    codes["this"] = THIS_TREE
    with tempfile.TemporaryDirectory(prefix="bench-ledger-") as tmp:
        base = Path(tmp)
        root = make_project(base)
        pause = f", {args.pause_ms:g} ms apart" if args.pause_ms else " back to back"
        rounds = f"{args.rounds} round(s); ms per call"
        print(f"{args.servers} stdio servers x {args.calls} calls each{pause}, {rounds}")
        print(f"  load average before: {load_average()} ({os.cpu_count()} cores)")
        ok = True
        for name, code in codes.items():
            quiet = asyncio.run(quiet_probe(root, base / f"state-quiet-{name}", args.calls, code))
            alone = f"probe server alone ({len(quiet.wall)} calls,"
            print(f"  [{name}] the ledger's cost on a call's path, {alone}")
            print("  the writer process counting and writing at the same time):")
            quiet.show()
            # the bound is on the wall time a call waits (the GIL included), not only on our CPU
            ok = ok and quiet.within_bound if name == "this" else ok
        for round_no in range(args.rounds):
            phases: dict[str, dict[str, object]] = {}
            order = [("off", False, None)] + [(n, True, c) for n, c in codes.items()]
            if round_no % 2:  # the machine's load drifts: every other round runs the phases backwards
                order.reverse()
            for name, ledger_on, code in order:
                state = base / f"state-{round_no}-{name}"
                phase = asyncio.run(
                    run_phase(root, state, args.servers, args.calls, ledger_on, args.pause_ms / 1000, code)
                )
                phases[name] = phase
                rows = ledger_rows(state)
                label = f"ledger on [{name}]" if ledger_on else "ledger off"
                print(
                    f"  round {round_no + 1} {label}: p50 {phase['p50']:.2f}  p99 {phase['p99']:.2f}  "
                    f"calls {phase['calls']}  error answers {phase['errors']}  warnings {phase['warnings']}  "
                    f"exit codes {phase['exit_codes']}  wall {phase['wall_s']:.1f} s  "
                    f"load average {load_average()}"
                )
                if ledger_on:
                    expected = args.calls + WARMUP_CALLS
                    probe_rows = rows.pop(PROBE_SESSION, 0)
                    complete = len(rows) == args.servers and all(n == expected for n in rows.values())
                    complete = complete and probe_rows == args.calls + WARMUP_CALLS
                    print(
                        f"    ledger rows: {sum(rows.values())} of {args.servers * expected} "
                        f"from {len(rows)} "
                        f"stdio sessions (min {min(rows.values(), default=0)}, "
                        f"max {max(rows.values(), default=0)} per session), {probe_rows} of {expected} "
                        f"from the probe server: {'every row present' if complete else 'ROWS MISSING'}"
                    )
                    path = phase["path"]
                    assert isinstance(path, PathTimes)
                    print(f"    the ledger's cost on a call's path under this load ({len(path.wall)} calls):")
                    path.show()
                    writers = phase["writers"]
                    assert isinstance(writers, WriterCpu)
                    writers.show(path)
                    during = float(str(phase["writers_cpu_during_calls_s"]))
                    per_call = during / int(str(phase["calls"])) * 1e6
                    print(
                        f"    the writers' CPU while the calls ran: {during:.2f} s, "
                        f"{per_call:.0f} us per call "
                        f"(the rest after the load: {writers.rows_cpu_s - during:.2f} s); after the "
                        f"load the servers exited in {float(str(phase['servers_exited_s'])):.1f} s, "
                        f"the writers in {float(str(phase['writers_exited_s'])):.1f} s"
                    )
                    if name == "this":
                        ok = ok and complete and phase["errors"] == 0 and phase["warnings"] == 0
                        ok = ok and path.cpu_within_bound
                        ok = ok and per_call <= MAX_WRITERS_CPU_DURING_CALLS_US
            off = phases["off"]
            for name in codes:
                d50 = float(str(phases[name]["p50"])) - float(str(off["p50"]))
                d99 = float(str(phases[name]["p99"])) - float(str(off["p99"]))
                added = f"p50 {d50:+.2f} ms, p99 {d99:+.2f} ms"
                print(f"  round {round_no + 1} [{name}] round trip on - off: {added}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
