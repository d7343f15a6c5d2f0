"""Exceptions of the runner.

Hierarchy::

    RunnerError                      base of everything the runner raises on purpose
    ├── IllegalTransitionError       a `run:*` transition the table does not allow (a bug)
    ├── ServerStartError             the pruner server could not be proven healthy
    │   ├── ServerSpawnError         the server command could not be executed
    │   ├── ServerExitedError        the server exited before it became healthy
    │   └── ServerStartTimeoutError  the server was not healthy within the startup bound
    ├── ProviderSpawnError           the provider command could not be executed
    └── InstallError                 an agent's config file cannot be read, parsed or written

Configuration problems are not exceptions: `runner.config.load_config` returns them as
values so the run can go on without the pruner.
"""

from __future__ import annotations


class RunnerError(Exception):
    """Raised when the runner cannot do what it was asked; base of this package's errors."""


class IllegalTransitionError(RunnerError):
    """Raised when code asks for a `run:*` transition the transitions table does not list."""


class ServerStartError(RunnerError):
    """Raised when the pruner server cannot be started and proven healthy.

    `stderr_tail` holds the last lines the server wrote, for the `start_failed` event.
    """

    reason = "start_failed"

    def __init__(self, message: str, *, stderr_tail: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.stderr_tail = stderr_tail


class ServerSpawnError(ServerStartError):
    """Raised when the server command cannot be executed (missing binary, permission)."""

    reason = "spawn_error"


class ServerExitedError(ServerStartError):
    """Raised when the server process exits before `/healthz` answers ok."""

    reason = "exited_during_startup"

    def __init__(self, message: str, *, returncode: int | None, stderr_tail: tuple[str, ...] = ()) -> None:
        super().__init__(message, stderr_tail=stderr_tail)
        self.returncode = returncode


class ServerStartTimeoutError(ServerStartError):
    """Raised when `/healthz` has not answered ok within the startup timeout."""

    reason = "start_timeout"


class ProviderSpawnError(RunnerError):
    """Raised when the provider command (claude, codex, any argv) cannot be executed."""


class InstallError(RunnerError):
    """Raised when `jeeves install`/`uninstall` cannot read, parse or write an agent's config file."""
