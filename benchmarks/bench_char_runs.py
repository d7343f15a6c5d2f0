"""Whether every scan of the engine is linear: long runs of one character, timed at two sizes.

A regex that tries each start position of a run and scans to the run's end costs the square of
the run, and the engine's deadline cannot stop a regex: one 32 KiB line of `.` in any code file
took 22.6 s (`_DEF_NAME` of `structure/calls.py`), 256 KiB of `\\r` 45 s (`_OVERWRITE` of
`terminal.py`). Here each character class is fed as one line (and as many short lines) of
`--small` and 4x that many characters, as code under each language's extension, as logs and as
docs, with no deadline worth the name; the time ratio of the two sizes is printed (linear ~4,
quadratic ~16). Target: every ratio <= RATIO_TARGET, or both times under NOISE_FLOOR_S (too
small to tell).

`--deadline-ms N` times instead each 64 KiB run under that budget: a scan the engine cannot
interrupt (one regex search) shows as time past it. Target: each under N + OVERSHOOT_TARGET_MS.
Parsers (tree-sitter) recovering from errors cost more than linear on some runs, but they look at
the deadline (a progress callback), so this mode is what bounds a call.

Usage: nice -n 10 .venv/bin/python benchmarks/bench_char_runs.py [--small 16384] [--only CHARS]
       [--deadline-ms 500] [--contexts .py,.R,logs]
"""

from __future__ import annotations

import argparse
import sys
import time

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.languages.registry import BY_EXTENSION
from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache
from mcp_pruner_server.pruning.types import PruneOptions, SourceType

# The runs the issue named and the other ASCII classes a scan might loop on.
CHARACTERS = (
    ".",
    "\r",
    "(",
    ")",
    '"',
    "'",
    "\\",
    " ",
    "\t",
    "<",
    ">",
    "#",
    "-",
    "{",
    "}",
    "[",
    "/",
    "*",
    "=",
    ":",
    ",",
    ";",
    "@",
    "$",
    "%",
    "`",
    "a",
    "0",
    "_",
    "\n",
    "\x1b",
    "é",
)
# Quadratic at 4x the size is ~16x the time; linear ~4x, plus the noise of a shared machine.
RATIO_TARGET = 8.0
# Below this a run's time is dominated by the engine's fixed costs (imports, parsers).
NOISE_FLOOR_S = 0.05
NO_DEADLINE_MS = 3_600_000
# `--deadline-ms`: a look at the clock every ~15 ms of work, the longest measured stretch ~200 ms.
OVERSHOOT_TARGET_MS = 250
DEADLINE_RUN = 65536
QUESTION = "why does parse_config fail with an error"


def contexts() -> list[tuple[str, SourceType, str | None]]:
    """(label, source type, path): one path per language, then logs and docs without one."""
    seen: dict[str, str] = {}
    for extension, language in BY_EXTENSION.items():
        seen.setdefault(language.name, extension)
    out: list[tuple[str, SourceType, str | None]] = [
        (f"code{ext}", "code", f"src/file{ext}") for ext in seen.values()
    ]
    out += [("code", "code", None), ("logs", "logs", None), ("docs", "docs", "README.md")]
    return out


def inputs(char: str, size: int) -> dict[str, str]:
    """One line of the run (the issue's shape: a word, the run, a newline) and short lines."""
    return {
        "line": "error\n" + char * size + "\n",
        "lines": (char * 63 + "\n") * (size // 64),
    }


def timed(text: str, source_type: SourceType, path: str | None, timeout_ms: int = NO_DEADLINE_MS) -> float:
    clear_parse_cache()
    options = PruneOptions(timeout_ms=timeout_ms, path=path)
    started = time.perf_counter()
    prune(text, QUESTION, source_type, options, "prn_bench")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=16384, help="the smaller run, in characters")
    parser.add_argument("--only", default="", help="these characters only (default: all)")
    parser.add_argument("--deadline-ms", type=int, default=0, help="time 64 KiB runs under this budget")
    parser.add_argument("--contexts", default="", help="labels' endings, comma-separated (.py,logs)")
    args = parser.parse_args()
    chars = tuple(args.only) if args.only else CHARACTERS
    chosen = [c for c in contexts() if not args.contexts or c[0].endswith(tuple(args.contexts.split(",")))]
    if args.deadline_ms:
        return overshoots(chars, chosen, args.deadline_ms)
    worst: list[tuple[float, str]] = []
    failed = 0
    for char in chars:
        for label, source_type, path in chosen:
            small, large = inputs(char, args.small), inputs(char, 4 * args.small)
            for shape in small:
                t_small = timed(small[shape], source_type, path)
                t_large = timed(large[shape], source_type, path)
                ratio = t_large / max(t_small, 1e-6)
                name = f"{char!r:6} {label:14} {shape:5}"
                ok = ratio <= RATIO_TARGET or t_large < NOISE_FLOOR_S
                worst.append((t_large, f"{name} {t_small:7.3f} s -> {t_large:7.3f} s  x{ratio:5.1f}"))
                if not ok:
                    failed += 1
                    print(f"NOT LINEAR {name} {t_small:.3f} s -> {t_large:.3f} s (x{ratio:.1f})", flush=True)
    print(f"\n{len(worst)} cases, sizes {args.small} and {4 * args.small}; the slowest at the larger:")
    for _, line in sorted(worst, reverse=True)[:15]:
        print("  " + line)
    print(f"{failed} not linear (ratio > {RATIO_TARGET:g} and over {NOISE_FLOOR_S:g} s)")
    return 1 if failed else 0


def overshoots(
    chars: tuple[str, ...], chosen: list[tuple[str, SourceType, str | None]], budget_ms: int
) -> int:
    limit_s = (budget_ms + OVERSHOOT_TARGET_MS) / 1000
    failed = 0
    times: list[tuple[float, str]] = []
    for char in chars:
        for label, source_type, path in chosen:
            for shape, text in inputs(char, DEADLINE_RUN).items():
                took = timed(text, source_type, path, budget_ms)
                name = f"{char!r:6} {label:14} {shape:5}"
                times.append((took, f"{name} {took:7.3f} s"))
                if took > limit_s:
                    failed += 1
                    print(f"OVERRAN {name} {took:.3f} s against {budget_ms} ms", flush=True)
    print(f"\n{len(times)} runs of {DEADLINE_RUN} under {budget_ms} ms; the slowest:")
    for _, line in sorted(times, reverse=True)[:10]:
        print("  " + line)
    print(f"{failed} past {budget_ms} + {OVERSHOOT_TARGET_MS} ms")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
