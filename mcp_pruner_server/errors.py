"""Every exception the MCP pruner server raises on purpose, under one base class.

    PrunerServerError
    ├── ConfigError                  a configuration value is missing, malformed or out of range
    ├── DomainRpcError               a request the server answers with a dedicated JSON-RPC error
    │   ├── PruneIdNotFoundError     -32004 `prune_id_not_found`
    │   ├── InvalidRangeError        -32005 `invalid_range`
    │   ├── InvalidParamsError       -32602 tool arguments break the contract (`field_errors`)
    │   ├── MethodNotFoundError      -32601 unknown JSON-RPC method or tool
    │   └── InvalidRequestError      -32600 malformed JSON-RPC envelope
    └── BackendError                 a pruning backend failed; the service falls back
        ├── BackendTimeoutError      the call did not finish within its timeout
        ├── BackendHttpError         transport failure or a non-2xx status
        ├── BackendResponseError     the answer is not the JSON shape the backend expects
        └── BackendConfigError       the backend cannot be called as configured (e.g. no API key)

`DomainRpcError` subclasses carry `rpc_code` (a constant of `jsonrpc.py`, documented in
docs/http.md#json-rpc-error-codes), `message` and `data`, so the server maps them to a JSON-RPC
`error` object mechanically (`jsonrpc.domain_rpc_error`). A failing backend is never an error
reply: the service falls back (docs/tools.md#fail-open). `BackendError` subclasses carry the
`PruningMetadata.error.code` (`timeout | http_error | invalid_response`), the warning codes
to add to the fallback result, and backend stats (e.g. `deepinfra_http_status`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from mcp_pruner_server.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_RANGE,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PRUNE_ID_NOT_FOUND,
)

BackendErrorCode = Literal["timeout", "http_error", "invalid_response"]
StatValue = int | float | str | bool


class PrunerServerError(Exception):
    """Base class of every error raised on purpose by `mcp_pruner_server`."""


class ConfigError(PrunerServerError):
    """Raised when a configuration value is missing, malformed or out of range.

    `variable` names the environment variable or TOML key (`mcp_pruner.<key>`), `expected`
    says what would have been accepted; the runner reports it as `mcp_pruner.config_invalid`.
    """

    def __init__(self, variable: str, value: object, expected: str) -> None:
        self.variable = variable
        self.value = value
        self.expected = expected
        super().__init__(f"{variable}={value!r} is invalid: expected {expected}")


class DomainRpcError(PrunerServerError):
    """Raised when a request must be answered with a dedicated JSON-RPC error object."""

    rpc_code: int = INTERNAL_ERROR
    code: str = "internal_error"

    def __init__(self, message: str, data: Mapping[str, object]) -> None:
        super().__init__(message)
        self.data: dict[str, object] = {"code": self.code, **data}

    @property
    def message(self) -> str:
        """The JSON-RPC `error.message`: the domain code itself (docs/http.md#json-rpc-error-codes)."""
        return self.code


class PruneIdNotFoundError(DomainRpcError):
    """Raised when a `prune_id` is unknown, expired or evicted from the recovery store."""

    rpc_code = PRUNE_ID_NOT_FOUND
    code = "prune_id_not_found"

    def __init__(self, prune_id: str) -> None:
        super().__init__(f"prune_id {prune_id!r} is unknown or expired", {"prune_id": prune_id})
        self.prune_id = prune_id


class InvalidRangeError(DomainRpcError):
    """Raised when a recovery range is malformed (start < 1, start > end) or past the text."""

    rpc_code = INVALID_RANGE
    code = "invalid_range"

    def __init__(self, prune_id: str, reason: str, **details: object) -> None:
        super().__init__(f"invalid range: {reason}", {"prune_id": prune_id, "reason": reason, **details})
        self.prune_id = prune_id
        self.reason = reason


class BackendError(PrunerServerError):
    """Raised when a pruning backend cannot produce a result; the service falls back.

    Attributes:
        error_code: the `PruningMetadata.error.code` this failure maps to.
        warnings: warning codes to add to the fallback result (docs/tools.md#pruning-backends).
        stats: backend-specific stats to merge into the fallback result's `stats`.
    """

    error_code: BackendErrorCode = "http_error"

    def __init__(
        self,
        message: str,
        *,
        warnings: tuple[str, ...] = (),
        stats: Mapping[str, StatValue] | None = None,
    ) -> None:
        super().__init__(message)
        self.warnings = warnings
        self.stats: dict[str, StatValue] = dict(stats or {})


class BackendTimeoutError(BackendError):
    """Raised when a backend call (connect, send, wait and body read) outlives its timeout."""

    error_code: BackendErrorCode = "timeout"


class BackendHttpError(BackendError):
    """Raised when the backend is unreachable, drops the connection or answers non-2xx."""

    error_code: BackendErrorCode = "http_error"


class BackendResponseError(BackendError):
    """Raised when the backend answers 2xx with a body that is not the expected JSON shape."""

    error_code: BackendErrorCode = "invalid_response"


class BackendConfigError(BackendError):
    """Raised when the backend cannot be called as configured (e.g. `DEEPINFRA_API_KEY` unset).

    Mapped to `http_error`: from the caller's side the remote pruner could not be used.
    """

    error_code: BackendErrorCode = "http_error"


# --- server protocol errors (appended by the server's HTTP/tools layer) ---


class InvalidParamsError(DomainRpcError):
    """Raised when tool arguments break the contract: JSON-RPC -32602 with `field_errors`.

    `data.field_errors` is `[{field, message}]`, every violation at once (docs/tools.md#argument-rules).
    """

    rpc_code = INVALID_PARAMS
    code = "invalid_params"

    def __init__(self, field_errors: list[tuple[str, str]]) -> None:
        errors = [{"field": field, "message": message} for field, message in field_errors]
        super().__init__("Invalid params", {"field_errors": errors})
        self.field_errors = tuple(field_errors)

    @property
    def message(self) -> str:
        first = "; ".join(f"{f}: {m}" for f, m in self.field_errors[:3])
        return f"Invalid params: {first}" if first else "Invalid params"


class MethodNotFoundError(DomainRpcError):
    """Raised when a JSON-RPC method or a tool name is unknown: -32601."""

    rpc_code = METHOD_NOT_FOUND
    code = "method_not_found"

    def __init__(self, method: str, *, kind: str = "method") -> None:
        super().__init__(f"{kind} not found: {method}", {kind: method})
        self.method = method
        self.kind = kind

    @property
    def message(self) -> str:
        return f"{self.kind.capitalize()} not found: {self.method}"


class InvalidRequestError(DomainRpcError):
    """Raised when a JSON-RPC envelope is malformed (no `method`, bad `id`, ...): -32600."""

    rpc_code = INVALID_REQUEST
    code = "invalid_request"

    def __init__(self, reason: str) -> None:
        super().__init__(reason, {"reason": reason})
        self.reason = reason

    @property
    def message(self) -> str:
        return f"Invalid Request: {self.reason}"
