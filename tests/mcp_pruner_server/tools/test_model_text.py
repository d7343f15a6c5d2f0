from __future__ import annotations

from mcp_pruner_server.tools.model_text import model_text
from mcp_pruner_server.tools.outcome import JsonObject

MARKER = "[lines 1-8 pruned]"
PRUNED = f"{MARKER}\n9 def f(x):\n10     return x + 1\n"
CANONICAL = "⟦PRUNÉ: prune_id=prn_1 lignes 1-8 (8) raison=hors focus⟧\n9│ def f(x):\n10│     return x + 1\n"
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
        f"{MARKER}\n9 def f(x):\n10     return x + 1\n[8 of 10 lines pruned · recover_text prune_id=prn_1]"
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


def test_a_bash_with_both_streams_pruned_names_the_prune_id_of_each() -> None:
    both = {**APPLIED, "prune_ids": {"stdout": "prn_out", "stderr": "prn_err"}}
    result: JsonObject = {"tool": "bash", "stdout": PRUNED, "stderr": PRUNED, "exit_code": 0, "pruning": both}
    text = model_text("bash", result)
    assert text is not None
    assert text.endswith("recover_text stdout: prune_id=prn_out, stderr: prune_id=prn_err]")


def test_a_bash_whose_stderr_came_back_whole_names_only_the_pruned_stdout() -> None:
    both = {**APPLIED, "prune_ids": {"stdout": "prn_out", "stderr": "prn_err"}}
    result: JsonObject = {
        "tool": "bash",
        "stdout": PRUNED,
        "stderr": "boom\n",
        "exit_code": 0,
        "pruning": both,
    }
    text = model_text("bash", result)
    assert text is not None
    assert text.endswith("[8 of 11 lines pruned · recover_text prune_id=prn_out]")


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
    assert model_text("recover_text", {"raw_text": "a\nb\n", "metadata": {}}) == "a\nb"
    assert model_text("recover_range", {"raw_text": "x", "metadata": {}}) == "x"
    assert model_text("health", {"status": "healthy"}) is None


def test_recovered_lines_asked_with_numbers_carry_the_model_s_cheap_numbers() -> None:
    ranges = [{"start_line": 5, "end_line": 7}, {"start_line": 12, "end_line": 12}]
    result: JsonObject = {
        "raw_text": "5│ def f():\n6│ \n7│     return 1\n12│ x = f()",
        "metadata": {"ranges": ranges},
    }
    assert model_text("recover_text", result) == "5 def f():\n\n7     return 1\n12 x = f()"


def test_recovered_lines_that_only_look_numbered_are_shown_as_they_are() -> None:
    # the original lines themselves begin `1│ `: not the numbers of lines 5-6
    result: JsonObject = {
        "raw_text": "1│ a\n2│ b",
        "metadata": {"ranges": [{"start_line": 5, "end_line": 6}]},
    }
    assert model_text("recover_text", result) == "1│ a\n2│ b"


def test_prune_text_ends_with_its_prune_id_and_counts() -> None:
    result: JsonObject = {"prune_id": "prn_1", "pruned_text": CANONICAL, "annotations": [], "stats": {}}
    assert (
        model_text("prune_text", result) == f"{CANONICAL.rstrip()}\n[prune_id=prn_1 · 8 of 10 lines pruned]"
    )
