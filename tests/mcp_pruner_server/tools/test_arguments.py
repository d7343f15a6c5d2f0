import pytest

from mcp_pruner_server.errors import InvalidParamsError, InvalidRangeError
from mcp_pruner_server.jsonrpc import domain_rpc_error
from mcp_pruner_server.pruning.types import PruneOptions
from mcp_pruner_server.recovery import MAX_RECOVER_RANGES
from mcp_pruner_server.tools.bash_tool import parse_bash
from mcp_pruner_server.tools.engine_tools import parse_health, parse_prune_text, parse_recover
from mcp_pruner_server.tools.grep_tool import parse_grep
from mcp_pruner_server.tools.read_tool import parse_read
from tests.json_paths import at


def field_errors(exc: pytest.ExceptionInfo[InvalidParamsError]) -> dict[str, str]:
    data = at(domain_rpc_error(None, exc.value), "error", kind=dict)
    assert data["code"] == -32602
    return {e["field"]: e["message"] for e in at(data, "data", "field_errors", kind=list)}


def test_read_applies_defaults_and_trims_the_question() -> None:
    args = parse_read({"path": "a.py", "context_focus_question": "  where is main?  "})
    assert args.path == "a.py"
    assert args.question == "where is main?"
    assert args.start_line is None
    assert args.max_output_bytes == 1024 * 1024


def test_read_reports_every_violation_at_once() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_read({"path": "", "max_output_bytes": 10, "context_focus_question": "   ", "extra": 1})
    errors = field_errors(exc)
    assert set(errors) == {"path", "max_output_bytes", "context_focus_question", "extra"}
    assert "1024" in errors["max_output_bytes"]


def test_read_rejects_a_nul_in_the_path_and_an_inverted_line_window() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_read({"path": "a\x00b", "start_line": 5, "end_line": 2})
    assert set(field_errors(exc)) == {"path", "end_line"}


def test_a_question_over_1000_characters_is_rejected() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_read({"path": "a", "context_focus_question": "x" * 1001})
    assert "1000" in field_errors(exc)["context_focus_question"]


def test_bash_validates_env_keys_values_and_the_timeout_range() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_bash({"cmd": "true", "env": {"lower": "x", "OK": 3, "BIG": "v" * 4001}, "timeout_ms": 99})
    assert set(field_errors(exc)) == {"env.lower", "env.OK", "env.BIG", "timeout_ms"}


def test_bash_env_keys_match_the_whole_pattern_and_values_hold_no_nul() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_bash({"cmd": "true", "env": {"FOO\n": "x", "NUL": "a\x00b", "OK": "fine"}})
    assert set(field_errors(exc)) == {"env.FOO\n", "env.NUL"}


def test_a_grep_pattern_with_a_nul_is_a_field_error() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_grep({"pattern": "a\x00b", "paths": ["."]})
    assert set(field_errors(exc)) == {"pattern"}


def test_a_lone_surrogate_where_the_os_needs_text_is_a_field_error() -> None:
    lone = "a\ud800"
    with pytest.raises(InvalidParamsError) as read:
        parse_read({"path": lone})
    with pytest.raises(InvalidParamsError) as bash:
        parse_bash({"cmd": f"echo {lone}", "cwd": lone, "env": {"X": lone}})
    with pytest.raises(InvalidParamsError) as grep:
        parse_grep({"pattern": lone, "paths": [".", lone], "cwd": lone})
    assert set(field_errors(read)) == {"path"}
    assert set(field_errors(bash)) == {"cmd", "cwd", "env.X"}
    assert set(field_errors(grep)) == {"pattern", "paths[1]", "cwd"}
    assert "surrogate" in field_errors(read)["path"]
    # U+DC80-U+DCFF stand for the bytes 0x80-0xFF (surrogateescape): a file name can hold them.
    assert parse_read({"path": "no\udc80pe"}).path == "no\udc80pe"


def test_bash_rejects_a_command_over_50000_characters_and_a_boolean_timeout() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_bash({"cmd": "x" * 50_001, "timeout_ms": True})
    assert set(field_errors(exc)) == {"cmd", "timeout_ms"}


def test_bash_accepts_a_json_float_that_is_an_integer() -> None:
    assert parse_bash({"cmd": "true", "timeout_ms": 1000.0}).timeout_ms == 1000


def test_grep_keeps_a_leading_dash_pattern_and_applies_defaults() -> None:
    args = parse_grep({"pattern": "-foo", "paths": ["."]})
    assert args.pattern == "-foo"
    assert (args.fixed_string, args.case_sensitive, args.context_lines, args.max_matches) == (
        False,
        True,
        0,
        500,
    )


def test_grep_paths_must_be_1_to_100_non_empty_strings() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_grep({"pattern": "x", "paths": []})
    assert "paths" in field_errors(exc)
    with pytest.raises(InvalidParamsError) as exc:
        parse_grep({"pattern": "x", "paths": ["ok", ""]})
    assert "paths[1]" in field_errors(exc)
    with pytest.raises(InvalidParamsError):
        parse_grep({"pattern": "x", "paths": ["p"] * 101})


def test_prune_text_requires_every_field_and_option_as_seed_000_draws_it() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_prune_text(
            {"text": "a", "goal_hint": "g", "source_type": "prose", "options": {"min_keep_lines": -1}}
        )
    assert set(field_errors(exc)) == {
        "source_type",
        "options.max_prune_ratio",
        "options.min_keep_lines",
        "options.timeout_ms",
        "options.annotate_lines",
        "options.include_markers",
    }


def test_prune_text_builds_engine_options() -> None:
    args = parse_prune_text(
        {
            "text": "L1\nL2",
            "goal_hint": "garder L1",
            "source_type": "docs",
            "options": {
                "max_prune_ratio": 0.75,
                "min_keep_lines": 1,
                "timeout_ms": 1500,
                "annotate_lines": True,
                "include_markers": True,
            },
        }
    )
    assert args.options == PruneOptions(0.75, 1, 1500, True, True)
    assert args.source_type == "docs"


def test_recover_leaves_range_semantics_to_the_store_but_checks_shapes() -> None:
    args = parse_recover(
        {"prune_id": "prn_x", "ranges": [{"start_line": 0, "end_line": -3}], "include_line_numbers": False}
    )
    assert args.ranges == ((0, -3),)
    with pytest.raises(InvalidParamsError) as exc:
        parse_recover({"prune_id": "prn_x", "ranges": [{"start_line": 1}, 3], "include_line_numbers": "yes"})
    assert set(field_errors(exc)) == {"ranges[0].end_line", "ranges[1]", "include_line_numbers"}


def test_recover_refuses_too_many_ranges_before_checking_any_of_them() -> None:
    parse_recover(
        {
            "prune_id": "prn_x",
            "ranges": [{"start_line": 1, "end_line": 1}] * MAX_RECOVER_RANGES,
            "include_line_numbers": False,
        }
    )
    # One range too many: -32005 at once, not a walk of the items (none of which is valid).
    too_many: list[object] = ["not a range"] * (MAX_RECOVER_RANGES + 1)
    with pytest.raises(InvalidRangeError) as exc:
        parse_recover({"prune_id": "prn_x", "ranges": too_many, "include_line_numbers": False})
    assert at(domain_rpc_error(None, exc.value), "error", "code") == -32005
    assert f"at most {MAX_RECOVER_RANGES} ranges" in exc.value.reason


def test_too_many_ranges_still_reports_the_other_fields_first() -> None:
    with pytest.raises(InvalidParamsError) as exc:
        parse_recover({"ranges": [{"start_line": 1, "end_line": 1}] * (MAX_RECOVER_RANGES + 1)})
    assert "prune_id" in field_errors(exc)


def test_health_takes_no_argument_and_arguments_must_be_an_object() -> None:
    parse_health({})
    parse_health(None)
    with pytest.raises(InvalidParamsError):
        parse_health({"x": 1})
    with pytest.raises(InvalidParamsError) as exc:
        parse_read(["a"])
    assert set(field_errors(exc)) == {"arguments"}
