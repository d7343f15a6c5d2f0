"""How soon the engine gives up on inputs no task holds, against a trivial pass over the same text.

The engine's loops look at the clock as they go (`pruning/deadline.py`), the tree-sitter parse
too, and the walk of its tree. Each input below is pruned with each of `TIMEOUTS_MS` (the deadline
falls in one stage or another) and the median wall time printed next to a trivial pass over the
same text (`split_lines`, the engine's first step), all measured in this run; past a timeout, the
`timeout` no-op is expected (the warnings met are printed). Target: each median <= its timeout +
OVERSHOOT_TARGET_MS.

Before the walk of a parse tree looked at the clock, a 1.9 MB line of minified JavaScript ran ~1 s
past its deadline in the walk alone, a 1.9 MB log under a `.java` name ~2 s (and its count of
failed rows ~1 s more).

The inputs after them are code cut short or repeated thousands of times (unclosed brackets,
`@overload` stubs without an implementation), where a scan from each definition to its end cost
the square of the input: the deadline stopped it, and the text came back unpruned (the `timeout`
warning). `--cpu` adds the CPU seconds of one prune with no deadline (slow on the biggest inputs:
use it with `--only`); doubling such an input should about double it.

Usage: .venv/bin/python benchmarks/bench_odd_inputs.py [--runs N] [--only NAME …] [--cpu]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache
from mcp_pruner_server.pruning.text import split_lines
from mcp_pruner_server.pruning.types import PruneOptions, SourceType

# From stages before the parse to past the walk of a 2 MB text's tree; 1500 is the default.
TIMEOUTS_MS = (250, 500, 1000, 1500)
# A loop looks at the clock every 1,024 items (~15 ms of the costliest), then the no-op is built.
OVERSHOOT_TARGET_MS = 100
QUESTION = "what does f700 return when the request fails"
# `--cpu`'s timeout: a deadline never met.
NO_DEADLINE_MS = 3_600_000


def _one_line_functions(template: str, count: int, head: str = "", tail: str = "") -> str:
    return head + "".join(template.format(k=k) for k in range(count)) + tail


def _log(lines: int) -> str:
    return "".join(
        f"2024-01-01 12:00:{k % 60:02d} INFO [worker-{k % 17}] request id={k} path=/api/v1/items/{k} ok\n"
        for k in range(lines)
    )


def _noise(size: int) -> str:
    """Bytes of a binary file read as Latin-1: every control character, NUL included."""
    rng = random.Random(7)
    return bytes(rng.randrange(256) for _ in range(size)).decode("latin-1")


def _grep_hits(count: int) -> str:
    return "".join(
        f"src/mod{k % 300}/file{k % 997}.py:{k}:    result = compute_value(item_{k})\n" for k in range(count)
    )


def _repeated(template: str, count: int) -> Callable[[], str]:
    return lambda: "".join(template.format(k=k) for k in range(count))


# A bundle's licence header: a text of one line is never pruned (nothing to cut line by line).
BUNDLE_HEAD = "".join(f"/*! module {k}: MIT licence, see LICENSE */\n" for k in range(20))
JAVA = "  int f{k}(int x) {{ return x + {k}; }}\n"
# name -> (text builder, source type, path): what an agent's `read`, `bash` or `grep` could hand over
INPUTS: dict[str, tuple[Callable[[], str], SourceType, str | None]] = {
    "java, 40k one-line methods (1.7 MB)": (
        lambda: _one_line_functions(JAVA, 40_000, "class A {\n", "}\n"),
        "code",
        "A.java",
    ),
    "kotlin, 60k one-line functions (2 MB)": (
        lambda: _one_line_functions("  fun f{k}(x: Int): Int = x + {k}\n", 60_000, "class A {\n", "}\n"),
        "code",
        "A.kt",
    ),
    "js, a bundle: one minified line (1.9 MB)": (
        lambda: BUNDLE_HEAD + ("var a={b:1};function q(x){return x+1}" * 50_000)[:1_900_000] + "\n",
        "code",
        "app.min.js",
    ),
    "js, one minified line (5 MB, not parsed)": (
        lambda: "var a={b:1};function q(x){return x+1}" * 130_000,
        "code",
        "app.min.js",
    ),
    "js, 5,000 nested functions": (
        lambda: "".join(f"function f{k}() {{\n" for k in range(5000)) + "}\n" * 5000,
        "code",
        "deep.js",
    ),
    "c, an error on every line (2 MB)": (
        lambda: _one_line_functions("int f{k}(int x) {{ return x + @@ {k}; }}\n", 50_000),
        "code",
        "errors.c",
    ),
    "a log under a .java name (1.9 MB)": (lambda: _log(24_000), "code", "Build.java"),
    "binary bytes under a .c name (1 MB)": (lambda: _noise(1_000_000), "code", "blob.c"),
    "binary bytes, no name (2 MB)": (lambda: _noise(2_000_000), "code", None),
    "java, CRLF line ends (1.7 MB)": (
        lambda: _one_line_functions(JAVA.replace("\n", "\r\n"), 40_000, "class A {\r\n", "}\r\n"),
        "code",
        "A.java",
    ),
    "java, NUL and lone surrogates (1.7 MB)": (
        lambda: _one_line_functions(
            JAVA.replace("return", "ret\x00urn \udcff"), 40_000, "class A {\n", "}\n"
        ),
        "code",
        "A.java",
    ),
    "log, 200k lines (15 MB)": (lambda: _log(200_000), "logs", None),
    "grep, 100k hits (6.6 MB)": (lambda: _grep_hits(100_000), "code", None),
    # as the grep and bash tools hand it over: their output is `logs`, read as grep's (`grep.py`)
    "grep tool, 100k hits in as many files (6.6 MB)": (lambda: _grep_hits(100_000), "logs", None),
    "clojure, 4,000 unclosed defn": (_repeated("(defn f{k} [x]\n", 4000), "code", "core.clj"),
    "r, 4,000 unclosed function(x) {": (_repeated("f{k} <- function(x) {{\n", 4000), "code", "utils.R"),
    "r, 8,000 bodies going on (x +)": (_repeated("f{k} <- function(x) x +\n", 8000), "code", "utils.R"),
    "r, 4,000 unclosed setMethod(": (
        _repeated('setMethod("f{k}", "A", function(x) {{\n', 4000),
        "code",
        "methods.R",
    ),
    "python, 2,000 @overload stubs, no implementation": (
        _repeated("@overload\ndef f(\n    x: T{k},\n) -> int:\n    ...\n\n", 2000),
        "code",
        "stubs.py",
    ),
    "matlab, 800 functions of 61 lines (49k lines)": (
        _repeated("function y = f{k}(x)\n" + "  y = x;\n" * 60, 800),
        "code",
        "many.m",
    ),
}


def median_ms(runs: int, call: Callable[[], object]) -> float:
    samples = []
    for _ in range(runs):
        clear_parse_cache()  # a cached parse would hide the parse and its walk
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def cpu_seconds(text: str, source_type: SourceType, path: str | None) -> float:
    """CPU of one prune with no deadline to stop it (what the input costs the engine)."""
    clear_parse_cache()
    started = time.process_time()
    prune(text, QUESTION, source_type, PruneOptions(timeout_ms=NO_DEADLINE_MS, path=path), "prn_b")
    return time.process_time() - started


def main(runs: int, only: list[str], cpu: bool) -> int:
    print(
        f"prune with timeout_ms in {TIMEOUTS_MS}: median ms, and the worst median past its timeout "
        f"(target: <= {OVERSHOOT_TARGET_MS} ms); a trivial pass (split) for scale"
    )
    heads = "".join(f"{f'@{t} ms':>9}" for t in TIMEOUTS_MS)
    cpu_head = f"{'cpu s':>8}" if cpu else ""
    print(f"  {'input':<48} {'split':>7}{heads} {'worst past':>11}{cpu_head}  warnings")
    ok = True
    for name, (build, source_type, path) in INPUTS.items():
        if only and not any(o in name for o in only):
            continue
        text = build()
        trivial = median_ms(runs, lambda: split_lines(text))  # noqa: B023 (called in this iteration)
        medians: list[float] = []
        warnings: set[str] = set()
        for timeout_ms in TIMEOUTS_MS:
            options = PruneOptions(timeout_ms=timeout_ms, path=path)
            warnings.update(prune(text, QUESTION, source_type, options, "prn_b").warnings)
            medians.append(median_ms(runs, lambda: prune(text, QUESTION, source_type, options, "prn_b")))  # noqa: B023
        worst = max(m - t for m, t in zip(medians, TIMEOUTS_MS, strict=True))
        ok &= worst <= OVERSHOOT_TARGET_MS
        cells = "".join(f"{m:>9.0f}" for m in medians)
        cpu_cell = f"{cpu_seconds(text, source_type, path):>8.2f}" if cpu else ""
        met = ",".join(sorted(warnings)) or "-"
        print(f"  {name:<48} {trivial:>7.1f}{cells} {worst:>11.0f}{cpu_cell}  {met}", flush=True)
    print("all targets met" if ok else "a target was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[], help="run the inputs whose name holds one of these")
    parser.add_argument("--cpu", action="store_true", help="add the CPU of one prune with no deadline")
    args = parser.parse_args()
    sys.exit(main(args.runs, args.only, args.cpu))
