from pathlib import Path

import pytest

from mcp_pruner_server.pipeline.outcome import ToolFailure
from mcp_pruner_server.tools.bash_tool import parse_bash, run_bash_tool
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
