"""`jeeves config`: the settings in effect and where each came from, as a real process prints them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")


def run_config(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("JEEVES_", "DEEPINFRA_"))}
    return subprocess.run(
        [*JEEVES, "config"],
        cwd=cwd,
        env={**base, "HOME": str(cwd), **env},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def jeeves_config(cwd: Path, env: dict[str, str]) -> str:
    done = run_config(cwd, env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def row(output: str, name: str) -> list[str]:
    return next(line.split() for line in output.splitlines() if line.split()[:1] == [name])


def test_each_setting_says_whether_it_came_from_a_variable_the_file_or_the_default(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text("[mcp_pruner]\nstartup_timeout_ms = 5000\ncache_ttl_s = 60\n")

    out = jeeves_config(tmp_path, {"JEEVES_MCP_PRUNER_PORT": "8765", "DEEPINFRA_API_KEY": "sk-secret"})

    assert row(out, "port") == ["port", "8765", "env:JEEVES_MCP_PRUNER_PORT"]
    assert row(out, "startup_timeout_ms") == ["startup_timeout_ms", "5000", str(tmp_path / "jeeves.toml")]
    assert row(out, "host") == ["host", "127.0.0.1", "default"]
    assert row(out, "cache_ttl_s")[:2] == ["cache_ttl_s", "60"]
    assert row(out, "deepinfra_api_key") == ["deepinfra_api_key", "<set>", "env:DEEPINFRA_API_KEY"]
    assert "sk-secret" not in out
    assert "problem:" not in out


def test_a_mistake_is_listed_with_what_it_does_to_a_run_and_fails_the_command(tmp_path: Path) -> None:
    done = run_config(tmp_path, {"JEEVES_PRUNING_BACKEND": "foo"})
    out = done.stdout

    assert done.returncode == 1

    assert (
        "problem: pruning: JEEVES_PRUNING_BACKEND=foo: expected one of heuristic | http | deepinfra | cloud"
        " -> jeeves run starts the agent without the pruner"
    ) in out


def test_unknown_keys_and_tables_are_warned_with_the_nearest_known_name(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text(
        "[mcp_pruner]\nprot = 8765\ntool_budget_line = 50\n\n[mcp_prunr]\nport = 1\n", encoding="utf-8"
    )

    out = jeeves_config(tmp_path, {})

    toml = tmp_path / "jeeves.toml"
    assert f"warning: {toml}: unknown key prot in [mcp_pruner] (did you mean port?): ignored" in out
    assert (
        f"warning: {toml}: unknown key tool_budget_line in [mcp_pruner] "
        "(did you mean tool_budget_lines?): ignored"
    ) in out
    assert f"warning: {toml}: unknown table [mcp_prunr] (did you mean [mcp_pruner]?): ignored" in out
