from pathlib import Path

import pytest

from mcp_pruner_server.tools.bash_tool import parse_bash, run_bash_tool
from mcp_pruner_server.tools.outcome import ToolFailure
from tests.json_paths import at
from tests.mcp_pruner_server.tools.tool_context import tool_context

pytestmark = pytest.mark.anyio
# Longer than NAME_MAX (255): the kernel answers ENAMETOOLONG, not ENOENT.
TOO_LONG_NAME = "x" * 300


async def test_a_cwd_too_long_to_exist_is_an_invalid_cwd_tool_error(tmp_path: Path) -> None:
    async with tool_context(tmp_path) as context:
        outcome = await run_bash_tool(context, parse_bash({"cmd": "true", "cwd": TOO_LONG_NAME}))
    assert isinstance(outcome, ToolFailure)
    assert outcome.code == "invalid_cwd"
    assert at(outcome.result, "error", "code") == "invalid_cwd"


@pytest.mark.parametrize(
    ("cmd", "source_type", "path"),
    [
        ("sed -n '1,3p' shop.py", "code", "shop.py"),  # a file printed: pruned as its `read`
        ("cat NOTES.md", "docs", "NOTES.md"),
        ("cat shop.py | grep def", "logs", None),  # a filter's output is no file
        ("cat shop.py missing.py", "logs", None),  # two files, and a failure
        ("cat missing.py", "logs", None),  # the error message is no file's text
    ],
)
async def test_a_command_that_only_prints_a_file_is_pruned_as_that_file(
    tmp_path: Path, cmd: str, source_type: str, path: str | None
) -> None:
    (tmp_path / "shop.py").write_text("def total(lines):\n    return sum(lines)\n")
    (tmp_path / "NOTES.md").write_text("# Notes\n")
    async with tool_context(tmp_path, pruning=True) as context:
        outcome = await run_bash_tool(context, parse_bash({"cmd": cmd, "context_focus_question": "total?"}))
    assert not isinstance(outcome, ToolFailure)
    outcome.close()  # the whole-output captures made for the pipeline
    assert (outcome.source_type, outcome.path) == (source_type, path)
