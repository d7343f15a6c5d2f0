import re

import anyio
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.errors import BackendResponseError, BackendTimeoutError, PruneIdNotFoundError
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.types import MARKER_TEMPLATE, PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore

CODE = "\n".join(
    ["import os", ""]
    + [f"def helper_{i}(x):\n    y = x * {i}\n    return y + {i}\n" for i in range(30)]
    + ["def target(path):", "    return os.path.exists(path)"]
)
OPTIONS = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=True)
MARKER = re.compile(r"^⟦PRUNÉ: prune_id=(\S+) lignes (\d+)-(\d+) \((\d+)\) raison=(.*)⟧$")


def make_store(**bounds: int) -> RecoveryStore:
    return RecoveryStore(
        ttl_s=60, max_entries=bounds.get("max_entries", 100), max_bytes=bounds.get("max_bytes", 1 << 20)
    )


class FailingBackend:
    """A backend double: the remote faults themselves are exercised for real in backends/."""

    name = "http"

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.calls = 0

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        self.calls += 1
        raise self.error


@pytest.mark.anyio
async def test_prune_stores_the_original_under_a_fresh_sortable_id() -> None:
    service = PrunerService(PruningConfig(), make_store())
    outcome = await service.prune(CODE, "target path exists", "code", OPTIONS)
    await service.aclose()
    result = outcome.result
    assert re.fullmatch(r"prn_[0-9A-HJKMNP-TV-Z]{26}", result.prune_id)
    assert outcome.backend == "heuristic"
    assert (outcome.fallback, outcome.error_code, outcome.recoverable) == (False, None, True)
    assert outcome.applied
    assert service.store.get(result.prune_id) == CODE
    assert "def target(path):" in result.pruned_text


def reconstruct(service: PrunerService, result: PruneResult) -> str:
    """Kept lines plus every pruned range recovered in place of its marker."""
    out: list[str] = []
    for line in result.pruned_text.split("\n"):
        found = MARKER.match(line)
        if found and line in {a.marker for a in result.annotations}:
            start, end = int(found[2]), int(found[3])
            out.append(
                str(service.recover(result.prune_id, [(start, end)], include_line_numbers=False).raw_text)
            )
        else:
            out.append(line)
    return "\n".join(out)


@settings(max_examples=30, deadline=None)
@given(
    lines=st.lists(
        st.sampled_from(["", "def f(x):", "    return x", "import os", "error: boom", "x = 1"]), max_size=60
    ),
    goal=st.sampled_from(["error boom", "import", "f return"]),
    source_type=st.sampled_from(["code", "logs", "docs"]),
)
def test_kept_lines_and_recovered_ranges_reproduce_the_original_byte_for_byte(
    lines: list[str], goal: str, source_type: SourceType
) -> None:
    text = "\n".join(lines)

    async def main() -> str:
        service = PrunerService(PruningConfig(), make_store())
        result = await service.prune_text(text, goal, source_type, OPTIONS)
        await service.aclose()
        assert result.pruned_text == text or result.annotations
        return reconstruct(service, result)

    assert anyio.run(main) == text


@pytest.mark.anyio
async def test_input_over_the_limit_is_a_recoverable_no_op() -> None:
    text = "é\n" * 600  # 1200 chars, 1800 bytes
    service = PrunerService(PruningConfig(max_input_chars=1024), make_store())
    outcome = await service.prune(text, "q", "logs", OPTIONS)
    await service.aclose()
    result = outcome.result
    assert result.pruned_text == text
    assert result.annotations == ()
    assert result.stats.used_fallback is True
    assert result.warnings == ("input_too_large",)
    assert outcome.fallback
    assert outcome.error_code is None
    assert service.recover(result.prune_id, [(1, 2)], include_line_numbers=True).raw_text == "1│ é\n2│ é"


@pytest.mark.anyio
async def test_a_backend_failure_falls_back_to_the_heuristic_with_its_warnings_first() -> None:
    error = BackendTimeoutError(
        "slow", warnings=("deepinfra_error", "deepinfra_http_error"), stats={"deepinfra_docs_total": 9}
    )
    backend = FailingBackend(error)
    service = PrunerService(PruningConfig(), make_store(), backend)
    outcome = await service.prune(CODE, "target path exists", "code", OPTIONS)
    await service.aclose()
    result = outcome.result
    assert backend.calls == 1
    assert outcome.backend == "heuristic"
    assert (outcome.fallback, outcome.error_code, outcome.error_message) == (True, "timeout", "slow")
    assert result.stats.used_fallback is True
    assert result.stats.backend == "heuristic"
    assert result.warnings[:2] == ("deepinfra_error", "deepinfra_http_error")
    stats = result.to_dict()["stats"]
    assert stats["fallback_from"] == "http"
    assert stats["deepinfra_docs_total"] == 9
    assert result.stats.pruned_lines > 0  # the heuristic still pruned
    assert service.store.get(result.prune_id) == CODE


@pytest.mark.anyio
async def test_an_unexpected_exception_is_a_recoverable_no_op_with_internal_error() -> None:
    service = PrunerService(PruningConfig(), make_store(), FailingBackend(ZeroDivisionError("bug")))
    outcome = await service.prune(CODE, "q", "code", OPTIONS)
    await service.aclose()
    assert outcome.result.pruned_text == CODE
    assert outcome.result.warnings == ("internal_error",)
    assert outcome.result.stats.used_fallback is True
    assert outcome.error_code == "internal_error"
    assert service.store.get(outcome.result.prune_id) == CODE


@pytest.mark.anyio
async def test_error_codes_map_to_pruning_metadata_codes() -> None:
    error = BackendResponseError("bad json", warnings=("http_backend_error", "http_backend_parse_error"))
    service = PrunerService(PruningConfig(), make_store(), FailingBackend(error))
    outcome = await service.prune(CODE, "q", "code", OPTIONS)
    await service.aclose()
    assert outcome.error_code == "invalid_response"


@pytest.mark.anyio
async def test_a_text_too_large_for_the_store_is_pruned_but_flagged_unrecoverable() -> None:
    service = PrunerService(PruningConfig(), make_store(max_bytes=100))
    outcome = await service.prune(CODE, "target", "code", OPTIONS)
    await service.aclose()
    assert outcome.recoverable is False
    assert outcome.result.warnings[-1] == "recovery_unavailable"
    with pytest.raises(PruneIdNotFoundError):
        service.recover(outcome.result.prune_id, [(1, 1)], include_line_numbers=False)


@pytest.mark.anyio
async def test_health_has_the_seed_shape_and_names_the_backend() -> None:
    service = PrunerService(PruningConfig(), make_store())
    await service.prune(CODE, "q", "code", OPTIONS)
    health = service.health()
    await service.aclose()
    assert health["status"] == "healthy"
    assert health["capabilities"] == ["prune_text", "recover_text", "annotations", "markers"]
    assert health["backend"] == "heuristic"
    assert isinstance(health["timestamp"], str)
    assert re.match(r"\d{4}-\d\d-\d\dT", health["timestamp"])
    assert health["recovery"] == {"entries": 1, "bytes": len(CODE), "ttl_s": 3600}


@pytest.mark.anyio
async def test_aclose_closes_only_a_client_the_service_created() -> None:
    async with httpx.AsyncClient() as client:
        service = PrunerService(PruningConfig(), make_store(), client=client)
        await service.aclose()
        assert not client.is_closed
    owned = PrunerService(PruningConfig(backend="deepinfra"), make_store())
    await owned.aclose()
    assert owned._client is not None
    assert owned._client.is_closed


def test_a_local_backend_gets_no_http_client() -> None:
    assert PrunerService(PruningConfig(), make_store())._client is None


def test_marker_pattern_used_here_matches_the_canonical_template() -> None:
    marker = MARKER_TEMPLATE.format(prune_id="prn_X", start=3, end=9, count=7, reason="hors focus")
    assert MARKER.match(marker)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("config", "name"),
    [
        (PruningConfig(), "heuristic"),
        (PruningConfig(backend="http", endpoint="http://127.0.0.1:9/prune"), "http"),
        (PruningConfig(backend="deepinfra"), "deepinfra"),
    ],
)
async def test_the_service_uses_the_backend_the_config_names(config: PruningConfig, name: str) -> None:
    service = PrunerService(config, make_store())
    assert service.backend_name == name
    assert service.health()["backend"] == name
    await service.aclose()


@pytest.mark.anyio
async def test_the_prune_text_limit_is_in_characters_only() -> None:
    # 157,500 CJK characters (472,500 bytes) were `input_too_large` under a limit the README
    # gives as 262,144 characters: a second, byte limit applied too (issue 16).
    text = ("漢字かな交じり文" * 5 + "\n") * 3500
    assert len(text) == 143_500
    assert len(text.encode()) > 262_144
    service = PrunerService(PruningConfig(), make_store())
    under = await service.prune(text, "q", "logs", OPTIONS)
    over = await service.prune("a" * (PruningConfig().max_input_chars + 1), "q", "logs", OPTIONS)
    await service.aclose()
    assert "input_too_large" not in under.result.warnings
    assert over.result.warnings == ("input_too_large",)


@pytest.mark.anyio
async def test_an_engine_bug_is_logged_once_with_its_stack_where_the_service_catches_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from mcp_pruner_server.logs import configure_logging
    from mcp_pruner_server.pruning import engine

    def broken(*_args: object) -> PruneResult:
        raise ZeroDivisionError("a bug in the engine")  # no real input breaks it: injected

    configure_logging("json")
    monkeypatch.setattr(engine, "_prune", broken)
    service = PrunerService(PruningConfig(), make_store())  # the heuristic engine, in threads
    outcome = await service.prune(CODE, "q", "code", OPTIONS)
    await service.aclose()
    assert outcome.result.pruned_text == CODE
    assert outcome.result.warnings == ("internal_error",)
    assert (outcome.error_code, outcome.error_message) == (
        "internal_error",
        "ZeroDivisionError: a bug in the engine",
    )
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    logged = [e for e in events if "ZeroDivisionError" in json.dumps(e)]
    assert [e["event"] for e in logged] == ["pruner.internal_error"]
    assert "in broken" in json.dumps(logged[0])  # the engine's own frame: the stack was kept
