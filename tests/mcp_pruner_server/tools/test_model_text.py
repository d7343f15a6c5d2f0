from __future__ import annotations

from mcp_pruner_server.pipeline.outcome import JsonObject
from mcp_pruner_server.tools.model_text import model_text

MARKER = "⟦PRUNÉ: prune_id=prn_1 lignes 1-8 (8) raison=hors focus⟧"
PRUNED = f"{MARKER}\n9│ def f(x):\n10│     return x + 1\n"
APPLIED: JsonObject = {
    "attempted": True,
    "applied": True,
    "fallback": False,
    "raw_bytes": 99,
    "prune_id": "prn_1",
}
RAW: JsonObject = {"attempted": False, "applied": False, "fallback": False, "raw_bytes": 9}


def test_a_pruned_read_is_its_kept_lines_and_one_trailer_saying_how_to_recover_the_rest() -> None:
    result: JsonObject = {
        "tool": "read",
        "path": "a.py",
        "content": PRUNED,
        "truncated": False,
        "pruning": APPLIED,
    }
    assert model_text("read", result) == (
        f"{MARKER}\n9│ def f(x):\n10│     return x + 1\n[8 of 10 lines pruned · recover_text prune_id=prn_1]"
    )


def test_an_unpruned_read_is_the_file_itself_without_a_trailer() -> None:
    result: JsonObject = {"tool": "read", "content": "a\nb\n", "truncated": False, "pruning": RAW}
    assert model_text("read", result) == "a\nb"


def test_a_read_error_is_one_line_with_its_code() -> None:
    result: JsonObject = {"tool": "read", "path": "x", "error": {"code": "not_found", "message": "no x"}}
    assert model_text("read", result) == "error: not_found: no x"


def test_a_failed_bash_shows_both_streams_under_headers_and_its_exit_code() -> None:
    result: JsonObject = {
        "tool": "bash",
        "stdout": PRUNED,
        "stderr": "boom\n",
        "exit_code": 1,
        "truncated": True,
        "error": {"code": "nonzero_exit", "message": "command exited with status 1", "exit_code": 1},
        "pruning": APPLIED,
    }
    assert model_text("bash", result) == (
        f"stdout:\n{PRUNED.rstrip()}\nstderr:\nboom\nexit code: 1\n"
        "[8 of 11 lines pruned · recover_text prune_id=prn_1 · output truncated (max_output_bytes)]"
    )


def test_a_silent_bash_says_so_and_a_timeout_names_the_error() -> None:
    quiet: JsonObject = {"tool": "bash", "stdout": "", "stderr": "", "exit_code": 0, "pruning": RAW}
    assert model_text("bash", quiet) == "(no output)\nexit code: 0"
    timeout: JsonObject = {
        "tool": "bash",
        "stdout": "half\n",
        "stderr": "",
        "exit_code": None,
        "error": {"code": "timeout", "message": "timed out after 100 ms", "exit_code": None},
        "pruning": RAW,
    }
    assert model_text("bash", timeout) == "stdout:\nhalf\nerror: timeout: timed out after 100 ms"


def test_grep_is_rg_style_lines_or_the_pruned_listing() -> None:
    matches = [
        {"path": "a.py", "line": 3, "column": 1, "text": "x = 1", "kind": "match"},
        {"path": "a.py", "line": 4, "column": None, "text": "y = 2", "kind": "context"},
    ]
    plain: JsonObject = {"tool": "grep", "matches": matches, "match_count": 1, "pruning": RAW}
    assert model_text("grep", plain) == "a.py:3:x = 1\na.py-4-y = 2"
    pruned: JsonObject = {"tool": "grep", "matches": [], "listing": PRUNED, "pruning": APPLIED}
    pruned_text = model_text("grep", pruned)
    assert pruned_text is not None
    assert pruned_text.endswith("[8 of 10 lines pruned · recover_text prune_id=prn_1]")
    assert model_text("grep", {"tool": "grep", "matches": [], "pruning": RAW}) == "(no matches)"


def test_recover_text_is_the_recovered_lines_and_health_stays_json() -> None:
    assert model_text("recover_text", {"raw_text": "5│ a\n6│ b\n", "metadata": {}}) == "5│ a\n6│ b"
    assert model_text("recover_range", {"raw_text": "x", "metadata": {}}) == "x"
    assert model_text("health", {"status": "healthy"}) is None


def test_prune_text_ends_with_its_prune_id_and_counts() -> None:
    result: JsonObject = {"prune_id": "prn_1", "pruned_text": PRUNED, "annotations": [], "stats": {}}
    assert model_text("prune_text", result) == f"{PRUNED.rstrip()}\n[prune_id=prn_1 · 8 of 10 lines pruned]"
