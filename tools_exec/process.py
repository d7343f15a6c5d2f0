"""`bash`: one shell command in its own process group, with a timeout and a byte cap.

The command runs as `bash -c CMD` under the server's environment plus what the login profile adds,
captured once (see `environment.py`; without a usable capture, under the sanitized server
environment alone), or as
`bash -lc CMD` when `login_shell="every_call"` is asked for. stdin is /dev/null; stdout and
stderr share one `max_output_bytes` budget, of which stderr keeps up to a quarter however much
stdout wrote (`split_output`); a stream over its share keeps a quarter from its head and three
quarters from its tail (where a failing run's error is), with one marker line between
(`capture.py`). With `capture_bytes`, each stream is also captured whole up to that many bytes
(spooled to a temporary file past 1 MiB) for the caller to prune. A nonzero exit is a normal
result; only timeouts, spawn failures and a bad cwd raise.
"""

from __future__ import annotations

import functools
import os
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, TypeVar

import anyio.to_thread

from tools_exec.bulk import run_bulk
from tools_exec.capture import HeadTailCapture, Omitted
from tools_exec.environment import (
    login_environment,
    sanitized_env,
    secret_unset_prelude,
    under_profile,
    validate_overrides,
)
from tools_exec.errors import InvalidCwdError, InvalidPathError, ToolTimeoutError
from tools_exec.limits import (
    BASH_HEAD_SHARE,
    DEFAULT_MAX_OUTPUT_BYTES,
    DEFAULT_TIMEOUT_MS,
    FIND_BASH_CACHE_SIZE,
    LOGIN_ENV_TIMEOUT_SHARE,
    MIN_MAX_OUTPUT_BYTES,
    RAW_TAIL_BYTES,
    SPOOL_AFTER_BYTES,
    STDERR_RESERVE_SHARE,
)
from tools_exec.paths import resolve_inside, resolve_root
from tools_exec.supervise import supervise
from tools_exec.text import split_output

__all__ = ["BashResult", "LoginShell", "run_bash", "sanitized_env"]

LoginShell = Literal["cached_env", "every_call", "off"]
"""How the login profile applies: captured once and reused (default, fast), sourced by `bash -lc`
on every call (slow, exact), or not at all (`bash -c` under the sanitized server env)."""

_FALLBACK_BASH = "/bin/bash"
T = TypeVar("T")


@dataclass(frozen=True)
class BashResult:
    """Outcome of one command. `stdout`/`stderr` are what fits `max_output_bytes` (head, marker, tail
    when cut); `*_total_bytes` count everything the child wrote. `exit_code` is 128+N when a
    signal N killed it, None when we did (timeout)."""

    cmd: str
    cwd: str
    stdout: str
    stderr: str
    exit_code: int | None
    timed_out: bool
    truncated: bool
    duration_ms: float
    stdout_total_bytes: int = 0
    stderr_total_bytes: int = 0
    omitted: Mapping[str, Omitted] = field(default_factory=dict)  # by stream, when cut
    # With `capture_bytes`: (stdout, stderr) captured whole up to it; the caller closes them.
    captures: tuple[HeadTailCapture, HeadTailCapture] | None = None


async def run_bash(
    root: Path,
    cmd: str,
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
    login_shell: LoginShell = "cached_env",
    bash_path: str | None = None,
    capture_bytes: int | None = None,
) -> BashResult:
    """Run `cmd` with bash in a new session inside `root` (or `cwd`, confined to it).

    `cwd` in the result is the absolute, resolved directory the command ran in. With
    `capture_bytes`, `captures` holds both streams up to that size (the caller must close them).

    Raises:
        ValueError: empty command, NUL in it, non-positive timeout or cap, bad env key or value.
        InvalidCwdError: `cwd` escapes the root or is not an existing directory.
        SpawnError: bash cannot be started.
        ToolTimeoutError: the command outlived `timeout_ms`; its group was killed and
            `.partial` is a `BashResult` with `timed_out=True`.
    """
    _check_arguments(cmd, timeout_ms, max_output_bytes)
    overrides = validate_overrides(env or {})
    # Resolving cwd stats every component, and finding bash walks PATH: blocking filesystem work,
    # done in one worker-thread hop (its cost was lost in the noise of a 1.5-3 ms `true` round trip).
    workdir, bash = await anyio.to_thread.run_sync(_locate, root, cwd, bash_path)
    base = sanitized_env(os.environ)
    argv = [bash, "-c", cmd]
    deadline = time.monotonic() + timeout_ms / 1000
    if login_shell == "cached_env":
        capture_s = timeout_ms / 1000 * LOGIN_ENV_TIMEOUT_SHARE
        snapshot = await login_environment(bash, base, workdir, timeout_s=capture_s)
        if snapshot is not None:
            base = under_profile(base, snapshot)  # else: no usable profile, the sanitized env alone
    elif login_shell == "every_call":
        argv = [bash, "-lc", secret_unset_prelude(overrides, caller_path=base.get("PATH")) + cmd]
    # Each stream may hold the whole cap while it runs; `split_output` decides at the end.
    if capture_bytes is None:
        head, tail = int(max_output_bytes * BASH_HEAD_SHARE), max_output_bytes
    else:
        head, tail = max(capture_bytes - RAW_TAIL_BYTES, max_output_bytes), RAW_TAIL_BYTES
    stdout, stderr = HeadTailCapture(head, tail), HeadTailCapture(head, tail)
    try:
        outcome = await supervise(
            argv,
            cwd=workdir,
            env={**base, **overrides},
            timeout_s=deadline - time.monotonic(),  # what the profile capture left
            stdout_sink=stdout,
            stderr_sink=stderr,
        )
        stdout_keep, stderr_keep = split_output(
            stdout.total_bytes,
            stderr.total_bytes,
            max_output_bytes,
            stderr_reserve=int(max_output_bytes * STDERR_RESERVE_SHARE),
        )
        # reading a spool back (and counting its line ends) is blocking bulk work past the
        # in-memory size: the bulk thread, one call's at a time (`bulk.py`)
        cuts = await _off_loop_if_large(
            stdout.total_bytes + stderr.total_bytes,
            lambda: (
                stdout.text(stdout_keep, head_share=BASH_HEAD_SHARE),
                stderr.text(stderr_keep, head_share=BASH_HEAD_SHARE),
            ),
        )
    except BaseException:
        stdout.close()
        stderr.close()
        raise
    omitted = {name: cut.omitted for name, cut in zip(("stdout", "stderr"), cuts, strict=True) if cut.omitted}
    result = BashResult(
        cmd=cmd,
        cwd=str(workdir),
        stdout=cuts[0].text,
        stderr=cuts[1].text,
        exit_code=outcome.returncode,
        timed_out=outcome.timed_out,
        truncated=bool(omitted),
        duration_ms=outcome.duration_ms,
        stdout_total_bytes=stdout.total_bytes,
        stderr_total_bytes=stderr.total_bytes,
        omitted=omitted,
        captures=(stdout, stderr) if capture_bytes is not None and not outcome.timed_out else None,
    )
    if capture_bytes is None or outcome.timed_out:
        stdout.close()
        stderr.close()
    if outcome.timed_out:
        raise ToolTimeoutError(
            f"command timed out after {timeout_ms} ms; its process group was killed",
            partial=replace(result, exit_code=None),
        )
    return result


async def _off_loop_if_large(size: int, work: Callable[[], T]) -> T:
    """`work()` on the event loop when `size` bytes are all in memory, else in the bulk thread."""
    if size <= SPOOL_AFTER_BYTES:
        return work()
    return await run_bulk(work)


def _check_arguments(cmd: str, timeout_ms: int, max_output_bytes: int) -> None:
    if not cmd.strip():
        raise ValueError("cmd is empty")
    if "\0" in cmd:
        raise ValueError("cmd contains a NUL byte")
    if timeout_ms <= 0:
        raise ValueError(f"timeout_ms must be > 0, got {timeout_ms}")
    if max_output_bytes < MIN_MAX_OUTPUT_BYTES:
        raise ValueError(f"max_output_bytes must be >= {MIN_MAX_OUTPUT_BYTES}, got {max_output_bytes}")


def _locate(root: Path, cwd: str | None, bash_path: str | None) -> tuple[Path, str]:
    """The resolved working directory and the bash to run. Blocking."""
    return _resolve_cwd(root, cwd), bash_path or _find_bash(os.environ.get("PATH"))


@functools.lru_cache(maxsize=FIND_BASH_CACHE_SIZE)
def _find_bash(path_env: str | None) -> str:
    return shutil.which("bash", path=path_env) or _FALLBACK_BASH


def _resolve_cwd(root: Path, cwd: str | None) -> Path:
    try:
        workdir = resolve_root(root) if cwd is None else resolve_inside(root, cwd)
    except InvalidPathError as exc:
        raise InvalidCwdError(exc.message) from exc
    if not workdir.is_dir():
        raise InvalidCwdError(f"cwd is not an existing directory: {cwd}")
    return workdir
