"""A bounded fuzz of `/rpc`, `/execute` and `/mcp` on the real server (issue 16).

One real `jeeves-mcp-pruner` child (with a token) for the module; hypothesis sends JSON-RPC-shaped
requests with hostile ids, methods, params and tool arguments, plus arbitrary bytes. Every answer
must be strict JSON in the route's shape, never a 5xx, and the server must still answer
`/healthz` afterwards. Bounded: a fixed number of examples per route, a deadline per example,
the database off (the same examples every run: no flakiness from what an earlier run found).

`bash` is never called: random command lines are not something to run on a developer machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.mcp_pruner_server.server_fixtures import ChildServer, child_server, strict_json

TOKEN = "tok-fuzz"
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "authorization": f"Bearer {TOKEN}",
}
# A loopback request answered in milliseconds; slack for 2 shared cores and a grep timeout.
HTTP_TIMEOUT_S = 20.0
EXAMPLES_PER_ROUTE = 60
FUZZ = settings(
    max_examples=EXAMPLES_PER_ROUTE,
    deadline=timedelta(seconds=10),
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def examples(bodies: list[bytes]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        for body in bodies:
            test = example(body=body)(test)
        return test

    return decorate


TOOLS = ["read", "grep", "prune_text", "recover_text", "recover_range", "health", "nope", ""]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
ids = st.one_of(st.integers(-5, 2**60), st.text(max_size=8), st.none(), json_values)
arguments = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "path": st.sampled_from(["a.txt", "../x", "/etc/passwd", "", "nope", "."]) | st.text(max_size=10),
            "pattern": st.text(max_size=10),
            "paths": st.lists(st.sampled_from(["a.txt", ".", "..", "/"]), max_size=3) | json_values,
            "timeout_ms": st.integers(-10, 400_000) | json_values,
            "text": st.text(max_size=200),
            "goal_hint": st.text(max_size=20),
            "prune_id": st.text(max_size=30),
            "ranges": st.lists(
                st.fixed_dictionaries(
                    {"start_line": st.integers(-3, 10**9), "end_line": st.integers(-3, 10**9)}
                ),
                max_size=3,
            )
            | json_values,
            "max_matches": st.integers(-3, 10_000) | json_values,
        },
    ),
)
tool_calls = st.fixed_dictionaries(
    {
        "jsonrpc": st.sampled_from(["2.0", "2.0", "1.0"]) | json_values,
        "method": st.sampled_from(["tools/call", "tools/call", "tools/list", "ping", "initialize", "nope"]),
        "params": st.fixed_dictionaries(
            {"name": st.sampled_from(TOOLS) | json_values, "arguments": arguments}
        )
        | json_values,
    },
    optional={"id": ids},
)
rpc_bodies = st.one_of(
    tool_calls.map(lambda m: httpx.Request("POST", "/", json=m).read()),
    st.lists(tool_calls, min_size=0, max_size=3).map(lambda m: httpx.Request("POST", "/", json=m).read()),
    st.binary(max_size=200),
)
execute_bodies = st.one_of(
    st.fixed_dictionaries({"tool": st.sampled_from(TOOLS) | json_values, "params": arguments}).map(
        lambda m: httpx.Request("POST", "/", json=m).read()
    ),
    json_values.map(lambda m: httpx.Request("POST", "/", json=m).read()),
    st.binary(max_size=200),
)


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    root: Path = tmp_path_factory.mktemp("fuzz_root")
    (root / "a.txt").write_text("alpha\nbeta error\n" * 20)
    server: ChildServer
    with (
        child_server(root, env={"JEEVES_MCP_PRUNER_TOKEN": TOKEN}) as server,
        httpx.Client(base_url=server.base_url, timeout=HTTP_TIMEOUT_S, headers=HEADERS) as client,
    ):
        yield client
        assert client.get("/healthz").status_code == 200  # still serving after everything


def expects_an_answer(body: bytes) -> bool:
    """A request object with an `id` (of any kind) is answered; only notifications get 202."""
    try:
        message = json.loads(body)
    except ValueError:
        return True  # a parse error is answered too
    items = message if isinstance(message, list) else [message]
    return not items or any(not isinstance(item, dict) or "id" in item for item in items)


def check_json_rpc(response: httpx.Response, body: bytes) -> None:
    assert response.status_code < 500, response.text
    if response.status_code == 202:
        assert response.content == b""
        assert not expects_an_answer(body), "a request with an id got no answer"
        return
    answer: Any = strict_json(response.content)
    for item in answer if isinstance(answer, list) else [answer]:
        assert item["jsonrpc"] == "2.0", item
        assert ("result" in item) != ("error" in item), item
        if "error" in item:
            assert isinstance(item["error"]["code"], int), item
            assert isinstance(item["error"]["message"], str), item


# The review's findings, always tried whatever hypothesis draws (202 and no answer on /mcp).
KNOWN_BAD_IDS = [
    b'{"jsonrpc": "2.0", "id": %s, "method": "ping"}' % raw for raw in (b"true", b"1.5", b"[]", b"null")
]


@FUZZ
@given(body=rpc_bodies)
@examples(KNOWN_BAD_IDS)
def test_rpc_answers_any_request_with_strict_json_rpc(http: httpx.Client, body: bytes) -> None:
    check_json_rpc(http.post("/rpc", content=body), body)


@FUZZ
@given(body=rpc_bodies)
@examples(KNOWN_BAD_IDS)
def test_mcp_answers_any_request_with_strict_json_rpc(http: httpx.Client, body: bytes) -> None:
    check_json_rpc(http.post("/mcp", content=body), body)


@FUZZ
@given(body=execute_bodies)
def test_execute_answers_any_request_in_its_own_shape(http: httpx.Client, body: bytes) -> None:
    response = http.post("/execute", content=body)
    assert response.status_code < 500, response.text
    answer: Any = strict_json(response.content)
    assert isinstance(answer, dict), answer
    assert isinstance(answer["ok"], bool), answer
    if not answer["ok"]:
        assert isinstance(answer["error"]["code"], str), answer
