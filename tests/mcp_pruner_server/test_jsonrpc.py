"""The error replies of `jsonrpc.py`: the two shapes, and a refusal in the shape of its path.

The codes against docs/http.md are checked in `tests/test_docs.py`; the bytes of every reply on
the wire in the route tests.
"""

from __future__ import annotations

import pytest

from mcp_pruner_server.errors import InvalidParamsError, PruneIdNotFoundError
from mcp_pruner_server.jsonrpc import (
    EXECUTE_PATH,
    INVALID_PARAMS,
    PRUNE_ID_NOT_FOUND,
    REFUSALS,
    TOOLS_PATH,
    UNAUTHORIZED,
    domain_rpc_error,
    refusal,
    rest_error,
    rpc_error,
)


def test_an_rpc_error_carries_data_only_when_given() -> None:
    assert rpc_error(7, -32000, "m") == {"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "m"}}
    with_data = rpc_error("a", -32000, "m", {"k": 1})
    assert with_data["error"] == {"code": -32000, "message": "m", "data": {"k": 1}}


def test_a_rest_error_leaves_out_empty_field_errors_and_data() -> None:
    assert rest_error("busy", "retry") == {"ok": False, "error": {"code": "busy", "message": "retry"}}
    full = rest_error("invalid_params", "bad", [{"field": "path", "message": "x"}], {"request_id": "r"})
    assert full["error"] == {
        "code": "invalid_params",
        "message": "bad",
        "field_errors": [{"field": "path", "message": "x"}],
        "data": {"request_id": "r"},
    }
    assert rest_error("c", "m", data={}) == {"ok": False, "error": {"code": "c", "message": "m"}}


def test_a_domain_error_becomes_its_code_message_and_data() -> None:
    answer = domain_rpc_error(3, PruneIdNotFoundError("prn_x"))
    assert answer == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {
            "code": PRUNE_ID_NOT_FOUND,
            "message": "prune_id_not_found",
            "data": {"code": "prune_id_not_found", "prune_id": "prn_x"},
        },
    }
    params = domain_rpc_error(None, InvalidParamsError([("path", "is required")]))
    assert params["error"] == {
        "code": INVALID_PARAMS,
        "message": "Invalid params: path: is required",
        "data": {"code": "invalid_params", "field_errors": [{"field": "path", "message": "is required"}]},
    }


@pytest.mark.parametrize("path", [TOOLS_PATH, EXECUTE_PATH])
def test_a_refusal_on_a_function_calling_route_is_a_rest_error(path: str) -> None:
    assert refusal(path, 401, "who?") == {"ok": False, "error": {"code": "unauthorized", "message": "who?"}}


@pytest.mark.parametrize("path", ["/rpc", "/mcp", "/healthz", "/api/mcp-gateway/x/rpc", "/nope", "/tools/x"])
def test_a_refusal_anywhere_else_is_a_json_rpc_error_with_a_null_id(path: str) -> None:
    assert refusal(path, 401, "who?") == rpc_error(None, UNAUTHORIZED, "who?")


def test_every_refusal_status_has_a_code_in_each_shape() -> None:
    for status, (rpc_code, rest_code) in REFUSALS.items():
        assert refusal("/rpc", status, "m")["error"] == {"code": rpc_code, "message": "m"}
        assert refusal(EXECUTE_PATH, status, "m")["error"] == {"code": rest_code, "message": "m"}
    with pytest.raises(KeyError):
        refusal("/rpc", 418, "not a refusal the server sends")
