"""`runner.install`: what `jeeves install`/`uninstall` write, on real files in a temporary HOME."""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

import pytest

from runner.errors import InstallError
from runner.install import (
    GUIDANCE_BEGIN,
    GUIDANCE_END,
    Agent,
    Scope,
    Target,
    apply,
    guidance_block,
    plan,
    server_argv,
)


def target(tmp_path: Path, agent: Agent, scope: Scope = "user") -> Target:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir(exist_ok=True)
    project.mkdir(exist_ok=True)
    return Target(agent, scope, home, project, home / ".codex")


def install(t: Target, *, guidance: bool = False) -> list[str]:
    changes = plan(t, install=True, guidance=guidance)
    apply(changes)
    return [change.describe() for change in changes]


def uninstall(t: Target) -> list[str]:
    changes = plan(t, install=False, guidance=False)
    apply(changes)
    return [change.describe() for change in changes]


def test_claude_user_scope_writes_what_claude_mcp_add_writes_and_keeps_everything_else(
    tmp_path: Path,
) -> None:
    t = target(tmp_path, "claude")
    config = t.home / ".claude.json"
    other = {"command": "other-server", "args": [], "type": "stdio", "env": {}}
    config.write_text(json.dumps({"numStartups": 3, "mcpServers": {"other": other}}), encoding="utf-8")
    config.chmod(0o600)

    install(t)

    document = json.loads(config.read_text(encoding="utf-8"))
    assert document["numStartups"] == 3
    assert document["mcpServers"]["other"] == other
    argv = server_argv()
    assert document["mcpServers"]["jeeves_pruner"] == {
        "type": "stdio",
        "command": argv[0],
        "args": argv[1:],
        "env": {},
        "alwaysLoad": True,
    }
    assert argv[-3:] == ["--stdio", "--result-view", "text"]
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


def test_installing_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    install(t, guidance=True)
    files = {p: p.read_bytes() for p in (t.codex_dir / "config.toml", t.codex_dir / "AGENTS.md")}

    second = install(t, guidance=True)

    assert all(line.startswith("unchanged") for line in second), second
    assert {p: p.read_bytes() for p in files} == files


def test_codex_table_is_added_beside_the_users_tables_and_removed_alone(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    t.codex_dir.mkdir()
    config = t.codex_dir / "config.toml"
    original = 'model = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n\n[profiles.fast]\nmodel = "mini"\n'
    config.write_text(original, encoding="utf-8")

    install(t)
    installed = tomllib.loads(config.read_text(encoding="utf-8"))
    uninstall(t)

    ours = installed["mcp_servers"]["jeeves_pruner"]
    assert ours["args"] == ["--stdio", "--result-view", "text"]
    assert ours["tools"]["bash"]["approval_mode"] == "approve"
    assert installed["mcp_servers"]["other"] == {"command": "x"}
    assert installed["profiles"]["fast"] == {"model": "mini"}
    assert tomllib.loads(config.read_text(encoding="utf-8")) == tomllib.loads(original)


def test_guidance_goes_between_markers_and_uninstall_removes_exactly_it(tmp_path: Path) -> None:
    t = target(tmp_path, "claude", "project")
    instructions = t.cwd / "CLAUDE.md"
    mine = "# My project\n\nRun `make test` before committing.\n"
    instructions.write_text(mine, encoding="utf-8")

    install(t, guidance=True)
    with_guidance = instructions.read_text(encoding="utf-8")
    uninstall(t)

    assert with_guidance.startswith(mine)
    assert with_guidance.endswith(guidance_block())
    assert with_guidance.count(GUIDANCE_BEGIN) == with_guidance.count(GUIDANCE_END) == 1
    assert instructions.read_text(encoding="utf-8") == mine
    assert not (t.cwd / ".mcp.json").exists(), "a .mcp.json holding only our entry goes with it"


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")

    changes = plan(t, install=True, guidance=True)

    assert [change.changed for change in changes] == [True, True]
    assert not (t.home / ".claude.json").exists()
    assert not (t.home / ".claude").exists()


def test_a_config_file_that_does_not_parse_is_left_alone(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    (t.home / ".claude.json").write_text("{not json", encoding="utf-8")

    with pytest.raises(InstallError, match="not valid JSON"):
        plan(t, install=True, guidance=False)

    assert (t.home / ".claude.json").read_text(encoding="utf-8") == "{not json"


def test_an_inline_codex_entry_is_refused_rather_than_rewritten(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    t.codex_dir.mkdir()
    (t.codex_dir / "config.toml").write_text('[mcp_servers]\njeeves_pruner = { command = "old" }\n')

    with pytest.raises(InstallError, match="not a plain table"):
        plan(t, install=True, guidance=False)


def test_codex_has_no_project_scope(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="--scope user"):
        plan(target(tmp_path, "codex", "project"), install=True, guidance=False)


def test_codex_required_is_written_only_when_asked(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    install(t)
    optional = tomllib.loads((t.codex_dir / "config.toml").read_text(encoding="utf-8"))

    lines = install_required(t)
    required = tomllib.loads((t.codex_dir / "config.toml").read_text(encoding="utf-8"))

    assert "required" not in optional["mcp_servers"]["jeeves_pruner"]
    assert required["mcp_servers"]["jeeves_pruner"]["required"] is True
    assert lines[0].startswith("updated")


def install_required(t: Target) -> list[str]:
    changes = plan(t, install=True, guidance=False, required=True)
    apply(changes)
    return [change.describe() for change in changes]


def test_allow_tools_adds_one_permission_rule_beside_the_users_and_uninstall_removes_only_it(
    tmp_path: Path,
) -> None:
    t = target(tmp_path, "claude")
    settings = t.home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}}), encoding="utf-8"
    )

    apply(plan(t, install=True, guidance=False, allow_tools=True))
    allowed = json.loads(settings.read_text(encoding="utf-8"))
    again = plan(t, install=True, guidance=False, allow_tools=True)
    uninstall(t)

    assert allowed == {"model": "opus", "permissions": {"allow": ["Bash(ls:*)", "mcp__jeeves_pruner"]}}
    assert not any(change.changed for change in again)
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"]},
    }


def test_a_settings_file_install_created_goes_with_uninstall(tmp_path: Path) -> None:
    t = target(tmp_path, "claude", "project")
    apply(plan(t, install=True, guidance=False, allow_tools=True))
    created = (t.cwd / ".claude" / "settings.json").is_file()

    uninstall(t)

    assert created
    assert not (t.cwd / ".claude" / "settings.json").exists()
