"""Typed failures of `tools_exec`, each carrying the contract's error code (docs/tools.md#tool-errors).

    ToolExecError                 (base; `.code`, `.message`, `.exit_code`)
    ├── NotFoundError             "not_found"
    ├── PermissionDeniedError     "permission_denied"
    ├── InvalidPathError          "invalid_path"
    ├── IoError                   "io_error"
    ├── ToolTimeoutError          "timeout"      (`.partial`: what was captured before the kill)
    ├── SpawnError                "spawn_error"
    ├── InvalidCwdError           "invalid_cwd"
    └── RgError                   "rg_error"

Arguments that are nonsense whatever the contract says (a negative timeout, NUL in a command)
raise `ValueError`; the server validates ranges first and answers -32602.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from tools_exec.grep import GrepResult
    from tools_exec.process import BashResult


class ToolExecError(Exception):
    """Raised when a tool cannot produce its normal result; `.code` is the contract's error code."""

    code: ClassVar[str] = "internal"

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class NotFoundError(ToolExecError):
    """Raised when the file to read does not exist."""

    code = "not_found"


class PermissionDeniedError(ToolExecError):
    """Raised when the operating system refuses to open the file."""

    code = "permission_denied"


class InvalidPathError(ToolExecError):
    """Raised when a path is empty, holds NUL, escapes the root (`..`, absolute, symlink), or does not
    name what the tool needs (a regular file for `read`, an existing path for `grep`)."""

    code = "invalid_path"


class IoError(ToolExecError):
    """Raised when a file is binary or reading it fails after it was opened."""

    code = "io_error"


class ToolTimeoutError(ToolExecError):
    """Raised when a command or search outlives its `timeout_ms`; its process group was killed.

    `.partial` holds the output captured until the kill (`timed_out=True` for bash,
    `truncated=True` for grep)."""

    code = "timeout"

    def __init__(self, message: str, *, partial: BashResult | GrepResult | None = None) -> None:
        super().__init__(message)
        self.partial = partial


class SpawnError(ToolExecError):
    """Raised when the shell or `rg` cannot be started (missing, not executable, fork failed)."""

    code = "spawn_error"


class InvalidCwdError(ToolExecError):
    """Raised when `bash.cwd` escapes the root or is not an existing directory."""

    code = "invalid_cwd"


class RgError(ToolExecError):
    """Raised when the search itself fails: `rg` exit 2 (bad regex, unreadable file), or the same
    faults in the pure-Python searcher. The message carries rg's stderr."""

    code = "rg_error"
