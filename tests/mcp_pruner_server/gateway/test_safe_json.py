"""The gateway answers strict JSON whatever the upstream sends (NaN, huge integers, surrogates)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mcp_pruner_server.server_fixtures import in_process, strict_json

from . import upstreams as up

pytestmark = pytest.mark.anyio
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "read", "arguments": {}}}
# What Python's `json.loads` accepts and strict clients do not: the upstream is not ours.
UNSAFE_REPLY = (
    b'{"jsonrpc": "2.0", "id": 7, "result": {"ratio": NaN, "limit": Infinity, '
    b'"big": 123456789012345678901234, "text": "a\\ud800b", "\\udc80key": [-Infinity]}}'
)


@pytest.mark.parametrize("question", [None, "which line matters?"])
async def test_an_upstream_reply_with_nan_huge_integers_and_surrogates_is_answered_strictly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, question: str | None
) -> None:
    body = json.loads(json.dumps(CALL))
    if question is not None:
        body["params"]["_meta"] = {"context_focus_question": question}
    async with up.serve(up.raw(200, UNSAFE_REPLY)) as upstream:
        monkeypatch.setenv("JEEVES_GATEWAY_SERVERS", json.dumps({"fs": upstream.url}))
        async with in_process(tmp_path) as client:
            response = await client.post("/api/mcp-gateway/fs/rpc", json=body)
    assert response.status_code == 200, response.text
    assert strict_json(response.content) == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "ratio": "NaN",
            "limit": "Infinity",
            "big": "123456789012345678901234",
            "text": "a\ufffdb",
            "\ufffdkey": ["-Infinity"],
        },
    }
