"""tools_exec speed against its baselines, measured in the same run (not a timed test).

- grep: `tools_exec.grep` vs the raw `rg` command line (same binary, same flags, spawned from
  Python with `subprocess.run`) over a generated tree of 5,000 files. Target: ratio <= 1.2.
- bash: `run_bash("true")` round trip. Target: median <= 15 ms. Shown for the three login modes;
  the default (`cached_env`) is the one the target applies to.
- timeouts: `run_bash` killed at timeout_ms=500 while a grandchild holds its stdout, vs `sleep 0.5`
  ending on its own; `grep` killed at timeout_ms=300 while rg blocks on a FIFO, vs the same grep
  without the FIFO plus 300 ms. Target: overrun <= 1000 ms (the contract: timeout + 1 s).

Usage: .venv/bin/python benchmarks/bench_tools.py [--files N] [--runs N] [--timeout-runs N]
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

from tools_exec.environment import sanitized_env
from tools_exec.errors import ToolTimeoutError
from tools_exec.grep import find_rg, grep
from tools_exec.grep_rg import rg_argv
from tools_exec.process import LoginShell, run_bash

IDENTIFIER = "request_id"
FILES_PER_DIR = 100
GREP_TARGET_RATIO = 1.2
BASH_TARGET_MS = 15.0
BASH_TIMEOUT_MS = 500
GREP_TIMEOUT_MS = 300
OVERRUN_TARGET_MS = 1000.0


def make_tree(root: Path, files: int) -> int:
    """`files` Python-looking files; every other one mentions IDENTIFIER once. Returns the match count."""
    matches = 0
    for index in range(files):
        directory = root / f"pkg{index // FILES_PER_DIR:03d}"
        directory.mkdir(exist_ok=True)
        body = [f"# module {index}", "import os", "", f"def handler_{index}(value):"]
        body += [f"    total_{n} = value * {n}  # filler line {n}" for n in range(40)]
        if index % 2 == 0:
            body += [f"def traced_{index}({IDENTIFIER}):", "    return None"]
            matches += 1
        (directory / f"mod_{index}.py").write_text("\n".join(body) + "\n")
    return matches


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def timed(runs: int, call: Callable[[], Awaitable[object]]) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - started)
    return samples


def timed_sync(runs: int, call: Callable[[], object]) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


async def main(files: int, runs: int, timeout_runs: int) -> int:
    rg = find_rg()
    if rg is None:
        print("no rg binary found: nothing to compare against")
        return 1
    with tempfile.TemporaryDirectory(prefix="bench-tools-") as tmp:
        root = Path(tmp)
        expected = make_tree(root, files)
        max_matches = 5000
        max_output_bytes = 10_485_760
        argv = rg_argv(
            rg,
            IDENTIFIER,
            ["."],
            fixed_string=False,
            case_sensitive=True,
            context_lines=0,
            max_matches=max_matches,
            max_output_bytes=max_output_bytes,  # the tool's own argv, --max-columns included
        )
        env = sanitized_env(os.environ)

        def raw_rg() -> bytes:
            return subprocess.run(argv, cwd=root, env=env, stdout=subprocess.PIPE, check=False).stdout

        def raw_rg_plain() -> bytes:
            command = [rg, "-n", IDENTIFIER, "."]
            return subprocess.run(command, cwd=root, env=env, stdout=subprocess.PIPE, check=False).stdout

        async def tool_grep() -> None:
            result = await grep(
                root, IDENTIFIER, ["."], max_matches=max_matches, max_output_bytes=max_output_bytes
            )
            assert result.match_count == expected, (result.match_count, expected)
            assert not result.truncated

        async def tool_grep_python() -> None:
            await grep(root, IDENTIFIER, ["."], max_matches=max_matches, engine="python")

        # Warm the page cache and the login-environment snapshot before measuring.
        raw_rg()
        await tool_grep()
        await run_bash(root, "true")

        # Interleave the two so background load on the machine hits both alike.
        raw_samples: list[float] = []
        tool_samples: list[float] = []
        tool_cpu = 0.0
        for _ in range(runs):
            raw_samples += timed_sync(1, raw_rg)
            cpu_before = time.process_time()
            tool_samples += await timed(1, tool_grep)
            tool_cpu += time.process_time() - cpu_before
        plain_samples = timed_sync(runs, raw_rg_plain)
        python_samples = await timed(max(3, runs // 5), tool_grep_python)

        bash: dict[LoginShell, list[float]] = {}
        modes: tuple[tuple[LoginShell, int], ...] = (
            ("cached_env", runs * 3),
            ("off", runs * 3),
            ("every_call", runs),
        )
        for mode, count in modes:
            bash[mode] = await timed(count, functools.partial(run_bash, root, "true", login_shell=mode))

    raw, tool = median_ms(raw_samples), median_ms(tool_samples)
    ratio = tool / raw
    print(f"tree: {files} files, {expected} matching lines for {IDENTIFIER!r}; {runs} runs each")
    print("raw argv: " + " ".join(argv))
    print(f"{'measure':48} {'median ms':>10}")
    print(f"{'raw rg, same argv as the tool (subprocess.run)':48} {raw:10.2f}")
    print(f"{'raw rg -n (plain, for reference)':48} {median_ms(plain_samples):10.2f}")
    print(f"{'tools_exec.grep (engine rg)':48} {tool:10.2f}")
    print(f"{'  of which this process CPU (mean)':48} {tool_cpu / runs * 1000:10.2f}")
    print(f"{'tools_exec.grep (engine python, fallback)':48} {median_ms(python_samples):10.2f}")
    for mode, samples in bash.items():
        print(f"{'run_bash true, login_shell=' + mode:48} {median_ms(samples):10.2f}")
    grep_ok = ratio <= GREP_TARGET_RATIO
    bash_ok = median_ms(bash["cached_env"]) <= BASH_TARGET_MS
    verdict = _verdict(grep_ok)
    print(f"grep overhead ratio tools_exec/raw rg: {ratio:.2f} (target <= {GREP_TARGET_RATIO}) {verdict}")
    bash_ms = median_ms(bash["cached_env"])
    print(f"bash true median: {bash_ms:.2f} ms (target <= {BASH_TARGET_MS} ms) {_verdict(bash_ok)}")
    timeouts_ok = await bench_timeouts(timeout_runs)
    return 0 if grep_ok and bash_ok and timeouts_ok else 1


async def timed_out(call: Callable[[], Awaitable[object]]) -> float:
    """Seconds until `call()` raises its ToolTimeoutError."""
    started = time.perf_counter()
    try:
        await call()
    except ToolTimeoutError:
        return time.perf_counter() - started
    raise AssertionError("the call was expected to time out")


async def bench_timeouts(runs: int) -> bool:
    """How long past its timeout a killed bash / grep returns, against its natural counterpart."""
    with tempfile.TemporaryDirectory(prefix="bench-timeouts-") as tmp:
        root = Path(tmp)
        (root / "a.txt").write_text("hit\n")
        os.mkfifo(root / "never-written")  # rg blocks reading it until it is killed
        held = "sleep 999 & echo $!; sleep 999"  # the grandchild keeps stdout open
        bash_killed = functools.partial(run_bash, root, held, timeout_ms=BASH_TIMEOUT_MS, login_shell="off")
        bash_natural = functools.partial(run_bash, root, f"sleep {BASH_TIMEOUT_MS / 1000}", login_shell="off")
        grep_killed = functools.partial(
            grep, root, "hit", ["a.txt", "never-written"], engine="rg", timeout_ms=GREP_TIMEOUT_MS
        )
        grep_natural = functools.partial(grep, root, "hit", ["a.txt"], engine="rg")
        samples: dict[str, list[float]] = {"bash": [], "bash_base": [], "grep": [], "grep_base": []}
        for _ in range(runs):  # interleaved, so background load hits both alike
            samples["bash"].append(await timed_out(bash_killed))
            samples["bash_base"] += await timed(1, bash_natural)
            samples["grep"].append(await timed_out(grep_killed))
            samples["grep_base"] += await timed(1, grep_natural)
    bash_over = median_ms(samples["bash"]) - median_ms(samples["bash_base"])
    grep_over = median_ms(samples["grep"]) - median_ms(samples["grep_base"]) - GREP_TIMEOUT_MS
    rows = (
        (f"bash, timeout_ms={BASH_TIMEOUT_MS} vs sleep {BASH_TIMEOUT_MS / 1000}", "bash", bash_over),
        (f"grep, timeout_ms={GREP_TIMEOUT_MS} vs no FIFO + {GREP_TIMEOUT_MS}", "grep", grep_over),
    )
    title = f"timeouts ({runs} runs each)"
    print(f"{title:40} {'killed ms':>10} {'baseline ms':>12} {'overrun ms':>11}")
    for label, key, over in rows:
        killed, base = median_ms(samples[key]), median_ms(samples[key + "_base"])
        print(f"{'  ' + label:40} {killed:10.1f} {base:12.1f} {over:11.1f}")
    ok = max(bash_over, grep_over) <= OVERRUN_TARGET_MS
    print(f"timeout overrun: target <= {OVERRUN_TARGET_MS:.0f} ms {_verdict(ok)}")
    return ok


def _verdict(ok: bool) -> str:
    return "OK" if ok else "MISSED"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=31)  # the machine is shared: medians need samples
    parser.add_argument("--timeout-runs", type=int, default=5)  # each run waits ~1.5 s
    options = parser.parse_args()
    sys.exit(anyio.run(main, options.files, options.runs, options.timeout_runs))
