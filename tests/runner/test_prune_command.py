"""`jeeves prune` end to end: a real process, as scripts and the quality harness run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_pruner_server.pruning.types import MARKER_TEMPLATE

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
from build_log import FAILURE_LINE, QUESTION, build_log

_SOURCE = "\n".join(
    [
        "import os",
        "",
        *[f"def helper_{k}(x):\n    return x + {k}\n" for k in range(40)],
        "def parse_record(raw):",
        "    fields = raw.split(',')",
        "    return {'name': fields[0]}",
        "",
    ]
)


def _jeeves(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", "from runner.cli import app; app()", "prune", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=30,
    )


def test_json_output_is_the_prune_text_result_object_with_the_kept_lines_in_order() -> None:
    proc = _jeeves(
        "-", "--goal", "parse_record fields", "--max-prune-ratio", "0.9", "--json", stdin=_SOURCE.encode()
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert set(result) == {"prune_id", "pruned_text", "annotations", "stats", "warnings"}
    assert "def parse_record(raw):\n    fields = raw.split(',')" in result["pruned_text"]
    assert result["stats"]["pruned_ratio"] <= 0.9
    assert result["stats"]["backend"] == "heuristic"
    assert result["annotations"], "a 125-line file about one function must lose lines"
    assert "⟦PRUNÉ" not in result["pruned_text"]  # markers are opt-in on the command line


def test_json_stats_count_the_lines_of_a_newline_terminated_text_as_wc_does() -> None:
    assert _SOURCE.endswith("\n")
    proc = _jeeves("-", "--goal", "parse_record fields", "--json", stdin=_SOURCE.encode())
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)["stats"]
    assert stats["original_lines"] == _SOURCE.count("\n") == 125  # `wc -l`
    assert stats["kept_lines"] + stats["pruned_lines"] == 125
    assert stats["pruned_ratio"] == stats["pruned_lines"] / 125


def test_markers_and_line_numbers_on_request_use_the_canonical_forms(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(_SOURCE, encoding="utf-8")
    proc = _jeeves(
        str(source),
        "--goal",
        "parse_record",
        "--max-prune-ratio",
        "0.9",
        "--markers",
        "--annotate-lines",
        "--json",
    )
    result = json.loads(proc.stdout)
    first = result["annotations"][0]
    assert first["marker"] == MARKER_TEMPLATE.format(
        prune_id=result["prune_id"],
        start=first["original_start_line"],
        end=first["original_end_line"],
        count=first["pruned_line_count"],
        reason=first["reason"],
    )
    out_lines = result["pruned_text"].split("\n")
    assert first["marker"] in out_lines  # on its own line, never prefixed
    target_no = _SOURCE.split("\n").index("def parse_record(raw):") + 1
    assert f"{target_no}│ def parse_record(raw):" in out_lines  # the original 1-based number


def test_plain_output_preserves_crlf_and_bytes_of_kept_lines() -> None:
    text = "\r\n".join(f"line {k} alpha" for k in range(10)) + "\r\n"
    proc = _jeeves("-", "--goal", "alpha", "--max-prune-ratio", "0", stdin=text.encode())
    assert proc.stdout == text.encode()


def test_an_unknown_source_type_is_a_usage_error() -> None:
    proc = _jeeves("-", "--goal", "x", "--source-type", "poems", stdin=b"a\n")
    assert proc.returncode == 2
    assert b"--source-type" in proc.stderr


def test_a_timeout_is_said_on_stderr_and_in_the_json_reason() -> None:
    text = "".join(f"INFO step {i} went fine\n" for i in range(200_000))
    proc = _jeeves(
        "-", "--goal", "why", "--source-type", "logs", "--timeout-ms", "1", "--json", stdin=text.encode()
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["reason"] == "timeout"
    assert proc.stderr.decode().splitlines() == [
        "jeeves prune: not pruned: the engine ran out of its 1 ms (--timeout-ms); printed unchanged"
    ]


def test_input_over_the_engine_cap_is_said_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from mcp_pruner_server.pruning import engine
    from runner import prune_command
    from runner.cli import app

    monkeypatch.setattr(engine, "MAX_INPUT_CHARS", 10)
    monkeypatch.setattr(prune_command, "MAX_INPUT_CHARS", 10)
    result = CliRunner().invoke(app, ["prune", "-", "--goal", "x"], input="0123456789abcdef\n")
    assert result.exit_code == 0
    assert result.stdout == "0123456789abcdef\n"  # unchanged
    assert (
        result.stderr
        == "jeeves prune: not pruned: 17 characters is over the engine's 10; printed unchanged\n"
    )


def test_a_pruned_text_prints_no_notice() -> None:
    proc = _jeeves("-", "--goal", "parse_record", "--max-prune-ratio", "0.9", stdin=_SOURCE.encode())
    assert proc.stderr == b""


def test_without_a_goal_it_is_a_usage_error_not_a_blind_cut() -> None:
    proc = _jeeves("-", stdin=_SOURCE.encode())

    assert proc.returncode == 2
    assert b"Missing option '--goal'" in proc.stderr
    assert proc.stdout == b""


def test_an_empty_goal_is_refused_too() -> None:
    proc = _jeeves("-", "--goal", " ", stdin=_SOURCE.encode())

    assert proc.returncode == 2
    assert b"--goal" in proc.stderr


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--max-prune-ratio", "2"),
        ("--min-keep-lines", "-1"),
        ("--timeout-ms", "-1"),
        ("--budget-lines", "-5"),
    ],
)
def test_out_of_range_options_are_refused_instead_of_returning_the_input(option: str, value: str) -> None:
    proc = _jeeves("-", "--goal", "parse_record", option, value, stdin=_SOURCE.encode())

    assert proc.returncode == 2
    assert option.encode() in proc.stderr
    assert proc.stdout == b""


def test_binary_input_is_refused_like_read_refuses_it(tmp_path: Path) -> None:
    blob = tmp_path / "image.bin"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))

    proc = _jeeves(str(blob), "--goal", "anything")

    assert proc.returncode == 1
    assert proc.stdout == b""
    assert b"binary input" in proc.stderr


# Prose with a pasted traceback and a code block: code, docs and logs rules each keep something
# different of it (logs keep the error lines, docs the outline).
_TRACEBACK = 'ERROR: a failure\nTraceback (most recent call last):\n  File "x.py", line 3\nValueError: bad\n'
_GUIDE = "\n".join(
    ["# Guide", ""]
    + [f"## Section {k}\n\nSome prose about topic {k}.\nMore words here.\n" for k in range(12)]
    + [_TRACEBACK]
    + [f"## Section {k}\n\nSome prose about topic {k}.\nMore words here.\n" for k in range(12, 30)]
    + ["## Parsing\n\nparse_record splits fields on commas.\n```"]
    + ["def parse_record(raw):\n    return raw.split(',')\n```\n"]
)
_GUIDE_GOAL = "how does parse_record split fields"


@pytest.mark.parametrize(("name", "kind"), [("notes.md", "docs"), ("server.log", "logs"), ("mod.py", "code")])
def test_the_source_type_follows_the_file_name(tmp_path: Path, name: str, kind: str) -> None:
    path = tmp_path / name
    path.write_text(_GUIDE, encoding="utf-8")
    by_kind = {
        k: json.loads(
            _jeeves("-", "--goal", _GUIDE_GOAL, "--source-type", k, "--json", stdin=_GUIDE.encode()).stdout
        )
        for k in ("code", "docs", "logs")
    }

    proc = _jeeves(str(path), "--goal", _GUIDE_GOAL, "--json")

    assert proc.returncode == 0, proc.stderr
    assert len({result["pruned_text"] for result in by_kind.values()}) == 3
    assert json.loads(proc.stdout)["pruned_text"] == by_kind[kind]["pruned_text"]


# What a tool call may return for a log (docs/tools.md: the tools' budget keeps it to a screenful).
SMALL_REPLY_BYTES = 128 * 1024


def test_a_big_log_comes_back_as_its_failure_within_the_tools_budget(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    log.write_text(build_log(70_000), encoding="utf-8")  # ~5 MB, the failure on its last line

    proc = _jeeves(str(log), "--goal", QUESTION)

    assert proc.returncode == 0, proc.stderr
    assert FAILURE_LINE.encode() in proc.stdout
    assert len(proc.stdout) <= SMALL_REPLY_BYTES
    assert b"not pruned" not in proc.stderr


def test_the_line_budget_is_a_flag() -> None:
    text = build_log(5_000)

    proc = _jeeves(
        "-", "--goal", QUESTION, "--source-type", "logs", "--budget-lines", "40", stdin=text.encode()
    )

    assert proc.returncode == 0, proc.stderr
    assert FAILURE_LINE.encode() in proc.stdout
    assert 10 <= proc.stdout.count(b"\n") <= 40


def test_a_text_kept_whole_is_said_on_stderr() -> None:
    proc = _jeeves("-", "--goal", "what does it print?", stdin=b"print('hello')\n")

    assert proc.returncode == 0
    assert proc.stdout == b"print('hello')\n"
    assert b"jeeves prune: not pruned: every line was kept" in proc.stderr


def test_bytes_that_are_not_utf8_are_noted_on_stderr(tmp_path: Path) -> None:
    latin1 = tmp_path / "notes.log"
    latin1.write_bytes("caf\u00e9 ouvert\n".encode("latin-1") * 3 + b"ERROR: the caf\xe9 is closed\n")

    proc = _jeeves(str(latin1), "--goal", "why is it closed?")

    assert proc.returncode == 0
    assert b"is not all UTF-8: 4 U+FFFD replacement characters" in proc.stderr
