"""Logs: errors always stay; the section the question names stays whole."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

_OPTS = PruneOptions(max_prune_ratio=1.0, include_markers=False)


def _pytest_log() -> list[str]:
    lines = ["============================= test session starts =============================="]
    lines += [f"test_mod.py::test_ok_{k} PASSED" for k in range(150)]
    lines += ["test_mod.py::test_parse_bad_quantity FAILED", "test_mod.py::test_total_rounding FAILED"]
    lines += ["=================================== FAILURES ==================================="]
    lines += ["___________________________ test_parse_bad_quantity ____________________________", ""]
    lines += ["    def test_parse_bad_quantity():", '>       rec = parse_record("widget,three,2.5")', ""]
    lines += ["helper.py:4: in parse_record", '    return {"qty": int(fields[1])}']
    lines += ["E   ValueError: invalid literal for int() with base 10: 'three'", ""]
    lines += ["test_mod.py:12: ValueError"]
    lines += ["______________________________ test_total_rounding _____________________________", ""]
    lines += [
        "    def test_total_rounding():",
        ">       assert total(recs) == 0.5",
        "E       assert 0.5000001 == 0.5",
    ]
    lines += ["==================================== PASSES ===================================="]
    lines += [f"PASSED test_mod.py::test_ok_{k}" for k in range(150)]
    lines += [
        "FAILED test_mod.py::test_parse_bad_quantity - ValueError: invalid literal",
        "FAILED test_mod.py::test_total_rounding",
    ]
    lines += ["==================== 2 failed, 150 passed in 0.75s ===================="]
    return lines


def test_the_asked_tests_failure_section_stays_whole_and_every_error_line_stays() -> None:
    lines = _pytest_log()
    result = prune("\n".join(lines), "Why does test_parse_bad_quantity fail?", "logs", _OPTS, "prn_l")
    kept = result.pruned_text.split("\n")
    start = lines.index("___________________________ test_parse_bad_quantity ____________________________")
    end = lines.index("test_mod.py:12: ValueError")
    assert all(line in kept for line in lines[start : end + 1] if line.strip())
    assert "E       assert 0.5000001 == 0.5" in kept  # another failure's error line
    assert "FAILED test_mod.py::test_parse_bad_quantity - ValueError: invalid literal" in kept
    assert "==================== 2 failed, 150 passed in 0.75s ====================" in kept
    assert result.stats.kept_lines < len(lines) * 0.25  # the 300 PASSED lines are gone


def test_a_python_traceback_in_an_application_log_stays_whole() -> None:
    lines = [f"2026-01-01 12:00:{k:02d} INFO request served in {k} ms" for k in range(60)]
    traceback = [
        "Traceback (most recent call last):",
        '  File "/srv/app/handlers.py", line 42, in handle',
        "    body = json.loads(raw)",
        '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
        "    return _default_decoder.decode(s)",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    ]
    text = "\n".join(lines[:30] + traceback + lines[30:])
    result = prune(text, "why is the request body rejected?", "logs", _OPTS, "prn_l")
    assert "\n".join(traceback) in result.pruned_text
    assert result.stats.pruned_lines > 40


def test_a_compilers_code_frame_stays_with_its_error() -> None:
    frame = [
        "error[E0308]: mismatched types",
        "  --> src/config.rs:57:24",
        "   |",
        "57 |     let port: u16 = env_port;",
        "   |               ---   ^^^^^^^^ expected `u16`, found `String`",
        "   |               |",
        "   |               expected due to this",
    ]
    lines = [f"   Compiling crate{k} v0.1.0" for k in range(120)]
    lines[60:60] = frame
    result = prune("\n".join(lines), "Why does the server not build?", "logs", _OPTS, "prn_c")
    kept = result.pruned_text.split("\n")
    assert all(line in kept for line in frame)
    assert len(kept) < len(lines) // 2


@pytest.mark.parametrize("name", ["AssertionError", "OSError", "IllegalStateException"])
def test_a_line_naming_an_exception_class_alone_is_an_error_line(name: str) -> None:
    lines = [f"tests/test_cart.py::test_case_{k} PASSED" for k in range(200)]
    lines[120:120] = [f"/work/proj/tests/test_cart.py:11: {name}"]  # pytest --tb=line
    options = PruneOptions(max_prune_ratio=0.95, min_keep_lines=0, include_markers=False)
    kept = prune("\n".join(lines), "why does the suite break?", "logs", options, "t").pruned_text.split("\n")
    assert f"/work/proj/tests/test_cart.py:11: {name}" in kept


def test_mochas_failing_count_is_an_error_line() -> None:
    lines = [f"    ✔ totals case {k}" for k in range(200)]
    lines[150:150] = ["  198 passing (11ms)", "  2 failing"]
    options = PruneOptions(max_prune_ratio=0.95, min_keep_lines=0, include_markers=False)
    kept = prune("\n".join(lines), "why does the suite break?", "logs", options, "t").pruned_text.split("\n")
    assert "  2 failing" in kept


def test_an_aborted_run_is_an_error_line() -> None:
    lines = [f"[rake] compiling part {k}: {k % 30} files" for k in range(200)]
    lines[120:120] = ["rake aborted!", "asset manifest for invoice is missing"]
    options = PruneOptions(max_prune_ratio=0.95, min_keep_lines=0, include_markers=False)
    kept = prune("\n".join(lines), "why does the build break?", "logs", options, "t").pruned_text.split("\n")
    assert "rake aborted!" in kept
    assert "asset manifest for invoice is missing" in kept
