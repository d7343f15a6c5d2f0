"""`group_watchdog`: the watchdog process kills the groups still registered when its pipe closes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import psutil
import pytest

from tools_exec import group_watchdog

EXIT_TIMEOUT_S = 10.0  # the watchdog's EOF to its exit: it only sends signals


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Two `sleep` commands, each leading its own process group, as `supervise` starts them."""
    started = [subprocess.Popen(["sleep", "60"], start_new_session=True) for _ in range(2)]
    yield started
    for process in started:
        process.kill()
        process.wait()


def test_on_eof_the_groups_still_registered_are_killed_and_the_ended_ones_spared(
    sleepers: list[subprocess.Popen[bytes]],
) -> None:
    registered, ended = sleepers
    read_fd, write_fd = os.pipe()
    watchdog = subprocess.Popen([sys.executable, group_watchdog.__file__], stdin=read_fd)
    os.close(read_fd)
    os.write(write_fd, b"+%d\n+%d\n-%d\n" % (registered.pid, ended.pid, ended.pid))

    os.close(write_fd)  # as the kernel does when the server dies, however it dies
    code = watchdog.wait(timeout=EXIT_TIMEOUT_S)

    assert code == 0
    assert registered.wait(timeout=EXIT_TIMEOUT_S) == -9
    assert ended.poll() is None


def test_the_watch_loop_reads_registrations_split_across_reads() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"+12")  # a line cut in two by the pipe
    os.write(write_fd, b"3\n+456\n-456\ngarbage\n+7")
    os.close(write_fd)

    assert group_watchdog.watch(read_fd) == {123}  # the unterminated last line is not a group
    os.close(read_fd)


def test_enable_starts_one_watchdog_in_its_own_session() -> None:
    assert group_watchdog.enable()
    assert group_watchdog.enable()  # idempotent
    pid = group_watchdog.watchdog_pid()

    assert pid is not None
    assert os.getsid(pid) == pid != os.getsid(0)
    assert psutil.Process(pid).is_running()
