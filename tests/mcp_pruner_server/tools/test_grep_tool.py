from pathlib import Path

import pytest

from mcp_pruner_server.pruning.types import Annotation, PruneResult, PruneStats
from mcp_pruner_server.tools.grep_tool import kept_matches, parse_grep, render_listing, run_grep_tool
from mcp_pruner_server.tools.outcome import ToolFailure
from tests.json_paths import at
from tests.mcp_pruner_server.tools.tool_context import tool_context
from tools_exec.grep import GrepMatch

MATCHES = [
    GrepMatch("a.py", 1, None, "before", "context"),
    GrepMatch("a.py", 2, 5, "hit()", "match"),
    GrepMatch("b.py", 9, 1, "hit again", "match"),
]


def test_the_listing_is_rg_style_with_dashes_around_context_lines() -> None:
    assert render_listing(MATCHES) == "a.py-1-before\na.py:2:hit()\nb.py:9:hit again\n"
    assert render_listing([]) == ""


def test_kept_matches_drop_exactly_the_lines_of_pruned_blocks() -> None:
    marker = "[lines 2-2 pruned]"
    stats = PruneStats(3, 2, 1, 0.33, 10, 7, 1.0, False)
    result = PruneResult("prn_x", "", (Annotation(2, 2, 1, "r", marker),), stats)
    assert kept_matches(MATCHES, result) == [MATCHES[0], MATCHES[2]]
    assert kept_matches(MATCHES, None) == MATCHES


@pytest.mark.anyio
@pytest.mark.parametrize("where", ["cwd", "paths"])
async def test_a_cwd_or_path_too_long_to_exist_is_an_invalid_path_tool_error(
    tmp_path: Path, where: str
) -> None:
    too_long = "x" * 300  # longer than NAME_MAX (255): the kernel answers ENAMETOOLONG
    arguments = {"pattern": "a", "paths": [too_long] if where == "paths" else ["."]}
    if where == "cwd":
        arguments["cwd"] = too_long
    async with tool_context(tmp_path) as context:
        outcome = await run_grep_tool(context, parse_grep(arguments))
    assert isinstance(outcome, ToolFailure)
    assert at(outcome.result, "error", "code") == "invalid_path"
