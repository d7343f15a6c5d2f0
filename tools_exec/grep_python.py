"""The pure-Python searcher, used when no `rg` binary can be found: a child process printing rg's
`--null` output, so `grep_rg.run_rg` supervises it, parses it and kills it exactly as it does rg.

Why a process and not a worker thread: Python's `re` backtracks, and one `re.search` of
`(a+)+$` on a line of 36 characters runs for minutes inside C code that holds the GIL. In a
thread no deadline check between lines ever runs, and the server's event loop (which needs the
GIL for every request) froze with it. A child has its own GIL and its process group is killed
at the deadline like rg's. Measured: the child starts in ~15 ms (`python -I -S`, standard
library only), against ~90 ms if it imported `tools_exec`; a linear-time engine (RE2) would
have been a new compiled dependency with another regex dialect.

Hence this module imports nothing from `tools_exec` at module level: it runs as a script
(`python -I -S grep_python.py SPEC`), and the parent side (`compile_pattern`,
`child_argv`) is the only part the package uses.

Policy, as close to ripgrep's defaults as a few lines allow: hidden entries and binary files
(NUL in the first 8 KiB) are skipped while walking, symlinks are not followed, a path named
explicitly is always searched. Unlike rg it does not read ignore files (`.gitignore`), so it may
return more matches; its regex dialect is Python's `re`, not Rust's `regex`.
"""

from __future__ import annotations

import collections
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

# Exit status for an unreadable file, as rg's (run_rg turns it into RgError with our stderr).
_EXIT_ERROR = 2
# Output is written in blocks this large: one write per block keeps the pipe busy, not the loop.
_WRITE_BLOCK_BYTES = 65_536


def compile_pattern(pattern: str, *, fixed_string: bool, case_sensitive: bool) -> tuple[str, int]:
    """The pattern and flags as Python searches them, checked by compiling them once.

    Raises:
        RgError: the pattern is not a valid regular expression.
    """
    from tools_exec.errors import RgError  # the parent's side only: the child imports no package

    source = re.escape(pattern) if fixed_string else pattern
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        re.compile(source, flags)
    except re.error as exc:
        raise RgError(f"regex parse error: {exc}", exit_code=2) from exc
    return source, flags


def child_argv(
    python: str,
    root: Path,
    rel_paths: Sequence[str],
    pattern: tuple[str, int],
    *,
    context_lines: int,
    max_line_chars: int,
    binary_sniff_bytes: int,
) -> list[str]:
    """The command line of a search child: isolated (`-I`), without site-packages (`-S`).

    `max_line_chars` plays rg's `--max-columns-preview`: a longer line is printed cut to it.
    """
    spec = {
        "root": str(root),
        "paths": list(rel_paths),
        "pattern": pattern[0],
        "flags": pattern[1],
        "context_lines": context_lines,
        "max_line_chars": max_line_chars,
        "sniff": binary_sniff_bytes,
    }
    return [python, "-I", "-S", __file__, json.dumps(spec)]


class _Printer:
    """rg's `--null` lines: `path NUL line:column:text` (match), `path NUL line-text` (context)."""

    def __init__(self, out: BinaryIO, max_line_chars: int) -> None:
        self._out = out
        self._max = max_line_chars
        self._block: list[bytes] = []
        self._size = 0

    def line(self, path: str, number: int, column: int | None, text: str) -> None:
        text = text[: self._max]
        head = f"{number}:{column}:" if column is not None else f"{number}-"
        data = f"{path}\0{head}{text}\n".encode("utf-8", "surrogateescape")
        self._block.append(data)
        self._size += len(data)
        if self._size >= _WRITE_BLOCK_BYTES:
            self.flush()

    def flush(self) -> None:
        self._out.write(b"".join(self._block))
        self._out.flush()
        self._block, self._size = [], 0


def search(
    root: Path,
    rel_paths: Sequence[str],
    regex: re.Pattern[str],
    *,
    context_lines: int,
    sniff: int,
    printer: _Printer,
) -> None:
    """Print every match (and context line) of `rel_paths`, relative to the resolved `root`.

    Raises:
        OSError: a file could not be read (rg exits 2 in the same case).
    """
    for rel in rel_paths:
        for file_rel in _walk(root, rel):
            _search_file(root, file_rel, regex, context_lines, sniff, printer)


def _walk(root: Path, rel: str) -> Iterator[str]:
    start = root / rel
    if not start.is_dir():
        yield rel
        return
    for dirpath, dirnames, filenames in os.walk(start, followlinks=False):
        dirnames[:] = sorted(name for name in dirnames if not name.startswith("."))
        base = Path(dirpath)
        for name in sorted(filenames):
            path = base / name
            if name.startswith(".") or path.is_symlink() or not path.is_file():
                continue
            yield path.relative_to(root).as_posix()


def _search_file(
    root: Path, rel: str, regex: re.Pattern[str], context_lines: int, sniff: int, printer: _Printer
) -> None:
    if not (root / rel).is_file():
        return  # a FIFO or device named explicitly: reading it could block forever
    try:
        with open(root / rel, "rb") as handle:
            if b"\0" in handle.read(sniff):
                return  # binary: skipped, as rg does
            handle.seek(0)
            _scan_lines(rel, handle, regex, context_lines, printer)
    except OSError as exc:
        raise OSError(f"{rel}: {exc.strerror or exc}") from exc


def _scan_lines(
    rel: str, lines: Iterable[bytes], regex: re.Pattern[str], context_lines: int, printer: _Printer
) -> None:
    before: collections.deque[tuple[int, str]] = collections.deque(maxlen=context_lines)
    after_left = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.decode("utf-8", errors="replace")
        text = text[:-1] if text.endswith("\n") else text
        text = text[:-1] if text.endswith("\r") else text
        found = regex.search(text)
        if found is not None:
            for context_number, context_text in before:
                printer.line(rel, context_number, None, context_text)
            before.clear()
            printer.line(rel, number, len(text[: found.start()].encode()) + 1, text)
            after_left = context_lines
        elif after_left:
            after_left -= 1
            printer.line(rel, number, None, text)
        elif context_lines:
            before.append((number, text))


def main(argv: Sequence[str]) -> int:
    """The child: search as `argv[1]` (child_argv's JSON) says; exit 0, or 2 with a message."""
    spec = json.loads(argv[1])
    printer = _Printer(sys.stdout.buffer, spec["max_line_chars"])
    try:
        search(
            Path(spec["root"]),
            spec["paths"],
            re.compile(spec["pattern"], spec["flags"]),
            context_lines=spec["context_lines"],
            sniff=spec["sniff"],
            printer=printer,
        )
    except OSError as exc:
        printer.flush()
        sys.stderr.write(f"{exc}\n")
        return _EXIT_ERROR
    printer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
