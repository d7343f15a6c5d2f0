"""JSON-RPC requests the tests send as they are, written once.

The `POST /rpc` bodies of the contract's curl examples (docs/http.md#post-rpc), byte for byte as
curl sends them: the in-process tests (`tests/mcp_pruner_server/test_rpc.py`) and the real-socket
ones (`tests/interop/test_http_curl_level.py`) post the same text. And the `initialize` a minimal
MCP client opens with, over stdio or `/mcp`.
"""

from __future__ import annotations

import json

TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
PRUNE_TEXT = r"""{
    "jsonrpc":"2.0",
    "id":2,
    "method":"tools/call",
    "params":{
      "name":"prune_text",
      "arguments":{
        "text":"L1\nL2\nL3\nL4",
        "goal_hint":"garder L1",
        "source_type":"docs",
        "options":{
          "max_prune_ratio":0.75,
          "min_keep_lines":1,
          "timeout_ms":1500,
          "annotate_lines":true,
          "include_markers":true
        }
      }
    }
  }"""
_RECOVER_TEXT = r"""{
    "jsonrpc":"2.0",
    "id":3,
    "method":"tools/call",
    "params":{
      "name":"recover_text",
      "arguments":{
        "prune_id":"prn_...",
        "ranges":[{"start_line":1,"end_line":50}],
        "include_line_numbers":true
      }
    }
  }"""


def recover_text(prune_id: str) -> str:
    """The recover_text example with `prune_id` where it shows `prn_...` (lines 1-50, numbered)."""
    assert _RECOVER_TEXT.count('"prn_..."') == 1
    return _RECOVER_TEXT.replace('"prn_..."', json.dumps(prune_id))


def initialize(request_id: int = 1, client_name: str = "t") -> dict[str, object]:
    """The `initialize` request of a minimal MCP client (protocol 2025-06-18, no capabilities)."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"},
        },
    }
