"""`grep`: search confined paths with ripgrep, or with a pure-Python searcher when rg is absent.

Both engines fill the same `MatchCollector`, so results have one shape: lines grouped by path
(relative to the root) in path order, at most `max_matches` matching lines (`truncated=True` when
there were more), at most `max_output_bytes` of paths and text.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import anyio.to_thread

from tools_exec import grep_python
from tools_exec.environment import sanitized_env
from tools_exec.errors import InvalidPathError, ToolTimeoutError
from tools_exec.grep_collect import GrepEngine, GrepMatch, GrepResult, MatchCollector
from tools_exec.grep_rg import find_rg, rg_argv, run_rg
from tools_exec.limits import (
    BINARY_SNIFF_BYTES,
    DEFAULT_MAX_MATCHES,
    DEFAULT_MAX_OUTPUT_BYTES,
    DEFAULT_TIMEOUT_MS,
    MIN_MAX_OUTPUT_BYTES,
)
from tools_exec.paths import relative_to_root, resolve_inside, resolve_root

__all__ = ["GrepEngine", "GrepMatch", "GrepResult", "find_rg", "grep"]

# The interpreter that runs the Python searcher's child: this one, as it was at import (a
# test may point `sys.executable` elsewhere to hide the wheel's rg).
_PYTHON = sys.executable


async def grep(
    root: Path,
    pattern: str,
    paths: Sequence[str],
    *,
    cwd: str | None = None,
    fixed_string: bool = False,
    case_sensitive: bool = True,
    context_lines: int = 0,
    max_matches: int = DEFAULT_MAX_MATCHES,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
    rg_path: str | None = None,
    engine: Literal["auto", "rg", "python"] = "auto",
) -> GrepResult:
    """Search `pattern` in `paths` (relative to `cwd`, itself relative to `root`; all confined).

    `engine="auto"` uses `rg_path`, else `find_rg()`, else the Python searcher (a child process,
    `grep_python`); "rg" insists on rg (SpawnError without one), "python" forces the fallback.

    Raises:
        ValueError: empty pattern or paths, NUL in the pattern, a limit below its minimum.
        InvalidPathError: `cwd` or a path escapes the root or does not exist.
        SpawnError: rg cannot be started.
        RgError: invalid pattern, unreadable file (rg exit 2), or rg killed by a signal.
        ToolTimeoutError: the search outlived `timeout_ms`; rg's group was killed and
            `.partial` is the `GrepResult` so far (`truncated=True`).
    """
    _check_arguments(pattern, paths, context_lines, max_matches, timeout_ms, max_output_bytes)
    started = time.monotonic()
    # Up to 100 paths, each resolved (a stat per component) and checked: blocking filesystem work,
    # done in a worker thread like the reads.
    real_root, rel_paths = await anyio.to_thread.run_sync(_resolve_paths, root, cwd, paths)
    collector = MatchCollector(
        max_matches=max_matches, max_output_bytes=max_output_bytes, context_lines=context_lines
    )
    rg = None if engine == "python" else (rg_path or find_rg())
    if engine == "rg" and rg is None:
        rg = "rg"  # not found anywhere: let the spawn fail with a clear SpawnError

    def result(truncated: bool) -> GrepResult:
        return GrepResult(
            pattern=pattern,
            paths=tuple(rel_paths),
            matches=collector.matches(),
            match_count=collector.match_count,
            truncated=truncated or collector.truncated,
            duration_ms=(time.monotonic() - started) * 1000,
            engine="python" if rg is None else "rg",
        )

    if rg is None:
        # A child process, killed at the deadline like rg: `re` can backtrack for minutes
        # inside one call that holds the GIL (see grep_python's module doc).
        compiled = grep_python.compile_pattern(
            pattern, fixed_string=fixed_string, case_sensitive=case_sensitive
        )
        argv = grep_python.child_argv(
            _PYTHON,
            real_root,
            rel_paths,
            compiled,
            context_lines=context_lines,
            max_line_chars=max_output_bytes,
            binary_sniff_bytes=BINARY_SNIFF_BYTES,
        )
    else:
        argv = rg_argv(
            rg,
            pattern,
            rel_paths,
            fixed_string=fixed_string,
            case_sensitive=case_sensitive,
            context_lines=context_lines,
            max_matches=max_matches,
            max_output_bytes=max_output_bytes,
        )
    outcome = await run_rg(
        argv,
        root=real_root,
        env=sanitized_env(os.environ),
        timeout_s=timeout_ms / 1000,
        collector=collector,
        max_output_bytes=max_output_bytes,
    )
    timed_out = outcome.timed_out
    if timed_out:
        raise ToolTimeoutError(f"search timed out after {timeout_ms} ms", partial=result(truncated=True))
    return result(truncated=False)


def _check_arguments(
    pattern: str,
    paths: Sequence[str],
    context_lines: int,
    max_matches: int,
    timeout_ms: int,
    max_output_bytes: int,
) -> None:
    if not pattern:
        raise ValueError("pattern is empty")
    if "\0" in pattern:
        raise ValueError("pattern contains a NUL byte")
    if isinstance(paths, str) or not paths:
        raise ValueError("paths must be a non-empty sequence of strings")
    if context_lines < 0:
        raise ValueError(f"context_lines must be >= 0, got {context_lines}")
    if max_matches < 1:
        raise ValueError(f"max_matches must be >= 1, got {max_matches}")
    if timeout_ms <= 0:
        raise ValueError(f"timeout_ms must be > 0, got {timeout_ms}")
    if max_output_bytes < MIN_MAX_OUTPUT_BYTES:
        raise ValueError(f"max_output_bytes must be >= {MIN_MAX_OUTPUT_BYTES}, got {max_output_bytes}")


def _resolve_paths(root: Path, cwd: str | None, paths: Sequence[str]) -> tuple[Path, list[str]]:
    """The resolved root, and each path confined and existing, as a root-relative string rg can be
    given from the root. Blocking."""
    real_root = resolve_root(root)
    base = real_root
    if cwd is not None:
        base = resolve_inside(root, cwd)
        if not base.is_dir():
            raise InvalidPathError(f"cwd is not an existing directory: {cwd}")
    rel_paths = []
    for user_path in paths:
        joined = user_path if "\0" in user_path or os.path.isabs(user_path) else str(base / user_path)
        resolved = resolve_inside(root, joined)
        if not resolved.exists():
            raise InvalidPathError(f"no such file or directory: {user_path}")
        rel_paths.append(relative_to_root(root, resolved))
    return real_root, rel_paths
