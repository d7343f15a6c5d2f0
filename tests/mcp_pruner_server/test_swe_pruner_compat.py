"""`POST /prune` (SWE-Pruner's wire format): the body parse stays off the event loop when large."""

import json
import threading
from typing import Any

import pytest

from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from mcp_pruner_server.swe_pruner_compat import handle_prune_request

pytestmark = pytest.mark.anyio


async def answer(body: bytes) -> tuple[int, dict[str, object]]:
    service = PrunerService(PruningConfig(), RecoveryStore(60, 10, 1 << 24))
    try:
        return await handle_prune_request(service, body)
    finally:
        await service.aclose()


async def test_a_large_body_is_parsed_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed_on_main: list[bool] = []
    real_loads = json.loads

    def spy(data: str | bytes, **kwargs: Any) -> Any:  # a spy: the real parser runs, typed as json.loads
        if len(data) > 64 * 1024:
            parsed_on_main.append(threading.current_thread() is threading.main_thread())
        return real_loads(data, **kwargs)

    code = "\n".join(f"def helper_{n}(x):\n    return x * {n}\n" for n in range(3000))
    body = json.dumps({"query": "helper_42", "code": code}).encode()
    monkeypatch.setattr(json, "loads", spy)
    status, payload = await answer(body)
    assert status == 200
    assert "helper_42" in str(payload["pruned_code"])
    assert parsed_on_main == [False]


@pytest.mark.parametrize("body", [b"{oops", b"\xff\xfe", b"[1]", b"[" * 100_000])
async def test_a_body_that_is_not_a_json_object_is_a_422(body: bytes) -> None:
    status, payload = await answer(body)
    assert status == 422
    assert payload["error_msg"]


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
async def test_a_body_with_a_non_json_constant_is_a_422_as_on_the_other_routes(constant: bytes) -> None:
    status, payload = await answer(b'{"query": "q", "code": "a\\nb", "extra": ' + constant + b"}")
    assert status == 422
    assert payload["error_msg"] == "body is not JSON"


async def test_kept_frags_number_the_lines_of_a_newline_terminated_file_as_its_reader_does() -> None:
    code = "".join(f"def helper_{n}(x):\n    return x * {n}\n\n" for n in range(140))  # `wc -l`: 420
    status, payload = await answer(json.dumps({"query": "helper_42", "code": code}).encode())
    assert status == 200
    kept = payload["kept_frags"]
    assert isinstance(kept, list)
    assert 0 < len(kept) < 420
    assert max(kept) <= 420  # never 421: the empty "line" after the final newline
    assert payload["score"] == round(len(kept) / 420, 4)
