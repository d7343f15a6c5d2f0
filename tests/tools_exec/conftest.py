"""Fixtures for `tools_exec`: a root directory per test, the asyncio backend, process probes,
a home with a login profile.

Helpers are fixtures, not imports: several test folders have a `conftest.py`, and importing
`conftest` by name would pick whichever was loaded first.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def home_with_profile(tmp_path: Path) -> Callable[[str], Path]:
    """`home_with_profile(text)`: a fresh home directory whose `.bash_profile` is `text`."""

    def make(profile: str) -> Path:
        home = tmp_path / "home"
        home.mkdir()
        (home / ".bash_profile").write_text(profile)
        return home

    return make


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A root with a sibling outside it, so escapes have somewhere to point."""
    inside = tmp_path / "root"
    inside.mkdir()
    (tmp_path / "outside.txt").write_text("secret outside the root\n")
    return inside


def _is_gone(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def _kill_if_alive(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def is_gone() -> Callable[[int], bool]:
    """Dead, or a zombie waiting for an init that may never reap it (containers)."""
    return _is_gone


def _wait_gone(pid: int, timeout_s: float) -> bool:
    """Blocking: poll until `pid` is gone (a real condition, checked every 5 ms), False on timeout."""
    deadline = time.monotonic() + timeout_s
    while not _is_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


@pytest.fixture
def wait_gone() -> Callable[[int, float], bool]:
    """Run in a worker thread: `await anyio.to_thread.run_sync(wait_gone, pid, 2.0)`. Signals are
    delivered asynchronously, so a process SIGKILLed a moment ago may not be gone yet."""
    return _wait_gone


@pytest.fixture
def kill_if_alive() -> Callable[[int], None]:
    """Cleanup for processes a test started on purpose outside our process groups."""
    return _kill_if_alive
