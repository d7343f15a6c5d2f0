"""`runner.install`: what `jeeves install`/`uninstall` write, on real files in a temporary HOME."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
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
    apply(changes, t.home)
    return [change.describe() for change in changes]


def uninstall(t: Target) -> list[str]:
    changes = plan(t, install=False, guidance=False)
    apply(changes, t.home)
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
    apply(changes, t.home)
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

    apply(plan(t, install=True, guidance=False, allow_tools=True), t.home)
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
    apply(plan(t, install=True, guidance=False, allow_tools=True), t.home)
    created = (t.cwd / ".claude" / "settings.json").is_file()

    uninstall(t)

    assert created
    assert not (t.cwd / ".claude" / "settings.json").exists()


# --- the user's data (issue 29 item 7, issue 30 items 4, 5, 14) ------------------------------


def _jeeves_install(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    return subprocess.run(
        [sys.executable, "-c", "from runner.cli import app; app()", *args],
        cwd=cwd or home,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_install_keeps_the_users_own_fields_of_our_claude_entry_and_says_so(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    config = t.home / ".claude.json"
    mine = {
        "type": "stdio",
        "command": "/old/jeeves-mcp-pruner",
        "args": [],
        "env": {"FOO": "1"},
        "timeout": 9,
    }
    config.write_text(json.dumps({"mcpServers": {"jeeves_pruner": mine}}), encoding="utf-8")

    said = install(t)

    entry = json.loads(config.read_text(encoding="utf-8"))["mcpServers"]["jeeves_pruner"]
    assert entry["env"] == {"FOO": "1"}
    assert entry["timeout"] == 9
    assert entry["command"] == server_argv()[0]
    assert "set command, args, alwaysLoad" in said[0]
    assert "kept your env, timeout" in said[0]


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_installing_again_claims_no_setting_of_the_user_that_install_wrote_itself(
    tmp_path: Path, agent: str
) -> None:
    first = _jeeves_install(tmp_path, "install", agent)
    again = _jeeves_install(tmp_path, "install", agent)

    assert first.returncode == 0, first.stderr
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("unchanged "), again.stdout
    assert "as wanted\n" in again.stdout  # not "as wanted; kept your env": the `"env": {}` is ours


def test_install_keeps_the_users_keys_and_comments_in_our_codex_table(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    t.codex_dir.mkdir()
    config = t.codex_dir / "config.toml"
    config.write_text(
        '# my settings\n[mcp_servers.jeeves_pruner]\ncommand = "/old"\n'
        'env = { FOO = "1" }  # for the tests\n',
        encoding="utf-8",
    )

    said = install(t)

    text = config.read_text(encoding="utf-8")
    assert "# my settings\n" in text
    assert 'env = { FOO = "1" }  # for the tests' in text
    assert tomllib.loads(text)["mcp_servers"]["jeeves_pruner"]["command"] == server_argv()[0]
    assert "kept your env" in said[0]


def test_a_multiline_string_holding_our_table_header_keeps_its_content(tmp_path: Path) -> None:
    t = target(tmp_path, "codex")
    t.codex_dir.mkdir()
    config = t.codex_dir / "config.toml"
    notes = 'notes = """\nold setup:\n[mcp_servers.jeeves_pruner]\ncommand = "x"\n"""\n'
    config.write_text(notes, encoding="utf-8")

    install(t)
    uninstall(t)

    assert tomllib.loads(config.read_text(encoding="utf-8")) == tomllib.loads(notes)


def test_uninstall_leaves_a_file_the_user_had_before_install(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    config = t.home / ".claude.json"
    config.write_text('{"mcpServers": {}}', encoding="utf-8")

    install(t)
    said = uninstall(t)

    assert json.loads(config.read_text(encoding="utf-8")) == {"mcpServers": {}}
    assert not any(line.startswith("removed") for line in said), said


def test_install_edits_a_symlinked_config_through_its_link_keeping_its_mode(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude.json"
    real.write_text('{"numStartups": 1}', encoding="utf-8")
    real.chmod(0o640)
    (t.home / ".claude.json").symlink_to(real)

    install(t)

    assert (t.home / ".claude.json").is_symlink()
    assert "jeeves_pruner" in json.loads(real.read_text(encoding="utf-8"))["mcpServers"]
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in dotfiles.iterdir()) == ["claude.json"]  # no temporary file left


def test_a_number_json_cannot_hold_is_refused_not_rewritten(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    config = t.home / ".claude.json"
    original = '{"limit": 1e400, "mcpServers": {}}'
    config.write_text(original, encoding="utf-8")

    with pytest.raises(InstallError, match="1e400"):
        install(t)

    assert config.read_text(encoding="utf-8") == original


def test_a_read_only_config_is_refused_not_replaced(tmp_path: Path) -> None:
    t = target(tmp_path, "claude")
    config = t.home / ".claude.json"
    config.write_text("{}", encoding="utf-8")
    config.chmod(0o444)

    with pytest.raises(InstallError, match="read-only"):
        install(t)

    assert config.read_text(encoding="utf-8") == "{}"
    assert stat.S_IMODE(config.stat().st_mode) == 0o444


def test_a_fifo_in_place_of_the_config_is_refused_without_hanging(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / ".claude.json")

    done = _jeeves_install(home, "install", "claude")

    assert done.returncode == 1
    assert "is not a regular file" in done.stderr


def test_codex_project_scope_is_a_usage_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()

    done = _jeeves_install(home, "install", "codex", "--scope", "project")

    assert done.returncode == 2
    assert "use --scope user" in done.stderr
