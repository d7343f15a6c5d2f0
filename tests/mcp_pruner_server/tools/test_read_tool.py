from pathlib import Path

import pytest

from mcp_pruner_server.tools.outcome import RawOutput
from mcp_pruner_server.tools.read_tool import ReadArgs, run_read, source_type_for
from tests.mcp_pruner_server.tools.tool_context import tool_context


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app.py", "code"),
        ("Makefile", "code"),
        ("config/settings.toml", "code"),
        ("docs/GUIDE.md", "docs"),
        ("README", "docs"),
        ("notes.txt", "docs"),
        ("logs/build.log", "logs"),
        ("out/test.out", "logs"),
    ],
)
def test_the_source_type_follows_the_extension(path: str, expected: str) -> None:
    assert source_type_for(path) == expected


@pytest.mark.anyio
async def test_the_read_output_carries_the_file_path_for_the_language(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.go").write_text("package main\n\nfunc main() {\n}\n")
    async with tool_context(tmp_path) as context:
        raw = await run_read(context, ReadArgs("src/main.go", None, None, 1 << 20, "main"))
    assert isinstance(raw, RawOutput)
    assert raw.path == "src/main.go"
