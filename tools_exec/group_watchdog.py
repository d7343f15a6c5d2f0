"""The commands' process groups die with the server that started them, even by SIGKILL.

`supervise` runs each command in its own process group and kills that group whatever the
command does, as long as the server lives. Killed with SIGKILL (the OOM killer, a client
that gives up on it), the server can do nothing: a `bash` call's shell and its children
lived on. `jeeves run` has its own watchdog (`runner/watchdog.py`); a server that an agent
spawns by itself (`--stdio`, what `jeeves install` registers) has this one:

- `enable()` starts a small watchdog process, in its own session (a signal to the server's
  group does not reach it), reading a pipe whose only write end the server holds
  (close-on-exec: no command inherits it);
- `supervise` writes `+PGID` when a group starts and `-PGID` once it has ended it;
- however the server ends, the kernel closes the write end: on EOF the watchdog SIGKILLs
  every group still registered (none after a clean exit), then exits.

Not covered: a process that left its group (`setsid`), which `supervise` only reaches while
the server lives; and a pid reused in the instant between a group's end and its `-PGID`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

# The pipe carries short lines; one read takes whatever is there.
READ_BYTES = 65536

_lock = threading.Lock()
_write_fd: int | None = None
_process: subprocess.Popen[bytes] | None = None


def enable() -> bool:
    """Start the watchdog (once per process); whether it runs.

    A watchdog that cannot start costs the guarantee, not the server: commands still run.
    """
    global _write_fd, _process
    with _lock:
        if _write_fd is not None:
            return True
        read_fd, write_fd = os.pipe()  # both close-on-exec
        try:
            _process = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__)],
                stdin=read_fd,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
            )
        except OSError:
            os.close(write_fd)
            return False
        finally:
            os.close(read_fd)
        _write_fd = write_fd
        return True


def watchdog_pid() -> int | None:
    """The watchdog process's pid, None when it is not running (tests)."""
    return None if _process is None else _process.pid


def group_started(pgid: int) -> None:
    """Register a command's process group (no-op unless `enable()` ran)."""
    _send(b"+%d\n" % pgid)


def group_ended(pgid: int) -> None:
    """The group is gone (killed and reaped by `supervise`): forget it."""
    _send(b"-%d\n" % pgid)


def _send(line: bytes) -> None:
    global _write_fd
    fd = _write_fd
    if fd is None:
        return
    try:
        os.write(fd, line)  # a few bytes to a pipe: atomic, and read at once by the watchdog
    except OSError:  # the watchdog is gone: commands still run, without the guarantee
        with _lock, contextlib.suppress(OSError):
            os.close(fd)
            _write_fd = None


def watch(read_fd: int) -> set[int]:
    """The watchdog's loop: the groups registered when the pipe reached EOF."""
    groups: set[int] = set()
    pending = b""
    while chunk := os.read(read_fd, READ_BYTES):
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            with contextlib.suppress(ValueError):
                if line.startswith(b"+"):
                    groups.add(int(line[1:]))
                elif line.startswith(b"-"):
                    groups.discard(int(line[1:]))
    return groups


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for pgid in watch(0):
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)


if __name__ == "__main__":
    main()
