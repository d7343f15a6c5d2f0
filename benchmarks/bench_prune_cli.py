"""`jeeves prune` on a big log: the failure on its last line, in a small reply, in little time.

    python benchmarks/bench_prune_cli.py [--mb 50] [--runs 3]

Writes a synthetic build log (`build_log.py`) of about `--mb` MB whose failure is its last line,
then runs the real CLI on it as a user would (`jeeves prune FILE --goal QUESTION`, a new process
each time, import included) and prints the median wall time, the reply's size and whether the
failure is in it. The same-run anchor is `rg -c` over the same file (one pass over its bytes),
as in `bench_sizes.py`; the load average is printed because the figure moves with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from build_log import FAILURE_LINE, QUESTION, build_log

# The targets of issue 30: the failure in at most this reply, within this time, at load < 1.
REPLY_LIMIT_BYTES = 128 * 1024
TIME_LIMIT_S = 3.0
# ~75 bytes a line: lines for one MB.
LINES_PER_MB = 13_900
JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Wall time, CPU time (user + system: what the load average does not move) and the result."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    return time.perf_counter() - started, _children_cpu() - cpu, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50, help="size of the log in MB")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (median)")
    args = parser.parse_args()
    rg = shutil.which("rg") or str(Path(sys.executable).parent / "rg")
    with tempfile.TemporaryDirectory(prefix="jeeves-bench-prune-") as scratch:
        log = Path(scratch) / "worker.log"
        log.write_text(build_log(args.mb * LINES_PER_MB), encoding="utf-8")
        size = log.stat().st_size
        print(f"log: {size / 1e6:.1f} MB, {args.mb * LINES_PER_MB:,} lines, the failure on its last line")
        print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
        anchor = [_timed([rg, "-c", "ERROR", str(log)])[0] for _ in range(args.runs)]
        runs = [_timed([*JEEVES, "prune", str(log), "--goal", QUESTION]) for _ in range(args.runs)]
        times = [elapsed for elapsed, _, _ in runs]
        cpu = statistics.median(used for _, used, _ in runs)
        done = runs[-1][2]
        reply = len(done.stdout)
        median = statistics.median(times)
        print(f"rg -c (anchor)   p50 {statistics.median(anchor) * 1000:8.1f} ms")
        print(
            f"jeeves prune     p50 {median * 1000:8.1f} ms  (runs: {', '.join(f'{t:.2f}' for t in times)} s)"
            f"  ratio {median / statistics.median(anchor):.1f}x  CPU p50 {cpu:.2f} s"
        )
        print(
            f"reply {reply / 1024:.1f} KiB (limit {REPLY_LIMIT_BYTES // 1024} KiB: "
            f"{'ok' if reply <= REPLY_LIMIT_BYTES else 'OVER'}); "
            f"failure in reply: {FAILURE_LINE.encode() in done.stdout}; "
            f"time limit {TIME_LIMIT_S} s: {'ok' if median <= TIME_LIMIT_S else 'OVER'}; "
            f"exit {done.returncode}"
        )
        print(f"stderr: {done.stderr.decode(errors='replace').strip() or '(nothing)'}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
