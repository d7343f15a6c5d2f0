"""`jeeves install` / `uninstall`: register the stdio server where Claude Code or Codex reads it.

What is written is what the agents' own commands write, so either can undo the other:

- Claude Code, `--scope user`: `mcpServers.jeeves_pruner` in `~/.claude.json` (what `claude mcp
  add --scope user` writes); `--scope project`: the same entry in `./.mcp.json` (`--scope
  project`, the file a team commits).
- Codex: the `[mcp_servers.jeeves_pruner]` table of `$CODEX_HOME/config.toml` (default
  `~/.codex`), the only MCP configuration Codex reads.
- `--guidance`: the shared guidance text (`runner.providers.guidance`) between two marker lines
  in the agent's persistent instructions: `~/.claude/CLAUDE.md` or `./CLAUDE.md`,
  `$CODEX_HOME/AGENTS.md` or `./AGENTS.md`. Uninstall removes exactly that block.
- `--allow-tools` (Claude): `mcp__jeeves_pruner` in `permissions.allow` of its settings.json;
  `--required` (Codex): `required = true` in the table. Both are explained where they are built.

Every change is computed first as a `FileChange` (the text before and after), so `--dry-run`
prints the same thing that a real run writes; a file that would not parse afterwards is never
written. Each file is replaced atomically and keeps its mode (`~/.claude.json` is 0600).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from runner.errors import InstallError
from runner.providers.base import SERVER_KEY
from runner.providers.claude import ALLOWED_TOOLS
from runner.providers.codex import CODEX_STARTUP_TIMEOUT_SEC, CODEX_TOOL_TIMEOUT_SEC, TOOLS_NOT_FOR_MODELS
from runner.providers.guidance import guidance_text

Agent = Literal["claude", "codex"]
Scope = Literal["user", "project"]
AGENTS: tuple[Agent, ...] = ("claude", "codex")
SCOPES: tuple[Scope, ...] = ("user", "project")

GUIDANCE_BEGIN = "<!-- jeeves-pruner guidance: begin (jeeves uninstall removes this block) -->"
GUIDANCE_END = "<!-- jeeves-pruner guidance: end -->"
# New files: a user config may hold other servers' secrets; instructions are meant to be read.
PRIVATE_FILE_MODE = 0o600
SHARED_FILE_MODE = 0o644
# A Codex table header: `[mcp_servers.jeeves_pruner]` and its subtables (`...env]`).
_TABLE_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


@dataclass(frozen=True)
class FileChange:
    """One file's text before and after (None: absent / to be deleted), and what it is."""

    path: Path
    before: str | None
    after: str | None
    what: str
    # Created 0600 (it may hold other servers' secrets); other new files 0644. Existing keep theirs.
    private: bool = False

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def describe(self) -> str:
        """One line for the user: what happens to which file."""
        if not self.changed:
            return f"unchanged {self.path}: {self.what}"
        if self.after is None:
            return f"removed {self.path} ({self.what}; nothing else was in it)"
        verb = "created" if self.before is None else "updated"
        return f"{verb} {self.path}: {self.what}"


# The model reads our plain text, not structuredContent's JSON (as `jeeves run`'s header asks).
SERVER_ARGS = ("--stdio", "--result-view", "text")


def server_argv() -> list[str]:
    """The stdio server command, by absolute path: agents spawn it with their own PATH.

    The `jeeves-mcp-pruner` script beside this interpreter (a pipx/uv/venv install), else the
    interpreter itself with `-m mcp_pruner_server`.
    """
    script = Path(sys.executable).with_name("jeeves-mcp-pruner")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), *SERVER_ARGS]
    return [sys.executable, "-m", "mcp_pruner_server", *SERVER_ARGS]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None


# --- Claude Code: JSON -------------------------------------------------------------------


def claude_entry(argv: Sequence[str]) -> dict[str, object]:
    """The entry `claude mcp add NAME -- CMD ARGS` writes, plus `alwaysLoad` as `jeeves run` sets it:
    our tools' schemas in the first request instead of behind Claude's ToolSearch."""
    return {"type": "stdio", "command": argv[0], "args": list(argv[1:]), "env": {}, "alwaysLoad": True}


def _json_change(path: Path, entry: dict[str, object] | None, *, private: bool) -> FileChange:
    before = _read(path)
    try:
        document = json.loads(before) if before is not None and before.strip() else {}
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it first, nothing was written") from None
    if not isinstance(document, dict) or not isinstance(document.get("mcpServers", {}), dict):
        raise InstallError(f"{path}: expected a JSON object with an object `mcpServers`")
    servers: dict[str, object] = dict(document.get("mcpServers", {}))
    if entry is None:
        if SERVER_KEY not in servers:
            return FileChange(path, before, before, f"no mcpServers.{SERVER_KEY}", private=private)
        del servers[SERVER_KEY]
        what = f"mcpServers.{SERVER_KEY} removed"
    else:
        if servers.get(SERVER_KEY) == entry:
            return FileChange(
                path, before, before, f"mcpServers.{SERVER_KEY} = {json.dumps(entry)}", private=private
            )
        servers[SERVER_KEY] = entry
        what = f"mcpServers.{SERVER_KEY} = {json.dumps(entry)}"
    document["mcpServers"] = servers
    if entry is None and before is not None and list(document) == ["mcpServers"] and not servers:
        # A `.mcp.json` we created holds nothing else now.
        return FileChange(path, before, None, what, private=private)
    return FileChange(path, before, json.dumps(document, indent=2) + "\n", what, private=private)


def claude_config_path(scope: Scope, home: Path, cwd: Path) -> Path:
    return home / ".claude.json" if scope == "user" else cwd / ".mcp.json"


def claude_settings_path(scope: Scope, home: Path, cwd: Path) -> Path:
    return (home if scope == "user" else cwd) / ".claude" / "settings.json"


def _permission_change(path: Path, allow: bool) -> FileChange:
    """`permissions.allow` with (or without) the rule allowing every tool of our server."""
    before = _read(path)
    try:
        document = json.loads(before) if before is not None and before.strip() else {}
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it first, nothing was written") from None
    shape_error = InstallError(f"{path}: expected a JSON object whose `permissions.allow` is a list")
    if not isinstance(document, dict):
        raise shape_error
    permissions = document.get("permissions", {})
    if not isinstance(permissions, dict) or not isinstance(permissions.get("allow", []), list):
        raise shape_error
    rules: list[object] = list(permissions.get("allow", []))
    if (ALLOWED_TOOLS in rules) == allow:
        state = "in" if allow else "not in"
        return FileChange(path, before, before, f"{ALLOWED_TOOLS} {state} permissions.allow")
    rules = [*rules, ALLOWED_TOOLS] if allow else [r for r in rules if r != ALLOWED_TOOLS]
    document["permissions"] = {**permissions, "allow": rules}
    what = f"permissions.allow {'+' if allow else '-'} {ALLOWED_TOOLS}"
    if not allow and document == {"permissions": {"allow": []}}:
        return FileChange(path, before, None, what)  # a file install created, holding nothing else now
    return FileChange(path, before, json.dumps(document, indent=2) + "\n", what)


# --- Codex: TOML, edited as text (no TOML writer among our dependencies) -------------------


def codex_table(argv: Sequence[str], *, required: bool = False) -> str:
    """`[mcp_servers.jeeves_pruner]` for a stdio server (JSON strings are TOML basic strings).

    `required`: Codex gives an optional server about one second after its session starts to list
    its tools and builds the first turn without them otherwise; ours needs ~1 s (the MCP SDK's
    import), so a `codex exec` one-shot usually runs without our tools. `required = true` makes
    Codex wait — and refuse to start a session if the server cannot start (no fail-open).
    """
    lines = [
        f"[mcp_servers.{SERVER_KEY}]",
        f"command = {json.dumps(argv[0])}",
        f"args = {json.dumps(list(argv[1:]))}",
        f"startup_timeout_sec = {CODEX_STARTUP_TIMEOUT_SEC}",
        f"tool_timeout_sec = {CODEX_TOOL_TIMEOUT_SEC}",
        # As `jeeves run` configures Codex: the tools programs call stay out of the model's list,
        # and our `bash` runs without an approval prompt `codex exec` would refuse.
        f"disabled_tools = {json.dumps(list(TOOLS_NOT_FOR_MODELS))}",
        'tools.bash.approval_mode = "approve"',
    ] + (["required = true"] if required else [])
    return "\n".join(lines)


def _without_our_table(text: str) -> str:
    """`text` without the `[mcp_servers.jeeves_pruner]` table and its subtables."""
    ours = f"mcp_servers.{SERVER_KEY}"
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        header = _TABLE_HEADER.match(line)
        if header:
            name = header.group(1).replace(" ", "").replace('"', "")
            skipping = name == ours or name.startswith(ours + ".")
        if not skipping:
            kept.append(line)
    return "".join(kept).rstrip("\n") + "\n" if "".join(kept).strip() else ""


def _our_codex_server(text: str, path: Path) -> object:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(f"{path} is not valid TOML ({exc}); fix it first, nothing was written") from None
    servers = document.get("mcp_servers", {})
    return servers.get(SERVER_KEY) if isinstance(servers, dict) else None


def _toml_change(path: Path, table: str | None) -> FileChange:
    before = _read(path)
    current = before or ""
    present = _our_codex_server(current, path)
    wanted = None if table is None else tomllib.loads(table)["mcp_servers"][SERVER_KEY]
    if table is None:
        what = (
            f"[mcp_servers.{SERVER_KEY}] removed" if present is not None else f"no [mcp_servers.{SERVER_KEY}]"
        )
    else:
        what = table.replace("\n", "; ")
    if present == wanted:
        return FileChange(path, before, before, what, private=True)
    base = _without_our_table(current)
    after = base if table is None else (base + "\n" if base else "") + table + "\n"
    try:
        edited = _our_codex_server(after, path)
    except InstallError:
        edited = "unparsable"
    if edited != wanted:
        # e.g. the entry written inline (`[mcp_servers]` / `jeeves_pruner = {...}`): not ours to rewrite.
        raise InstallError(
            f"cannot edit {path} safely: [mcp_servers.{SERVER_KEY}] is not a plain table there"
        )
    return FileChange(path, before, after if after.strip() else None, what, private=True)


def codex_home(env: Mapping[str, str], home: Path) -> Path:
    configured = env.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else home / ".codex"


# --- guidance ------------------------------------------------------------------------------


def guidance_block() -> str:
    return f"{GUIDANCE_BEGIN}\n{guidance_text()}\n{GUIDANCE_END}\n"


def _without_guidance(text: str) -> str:
    pattern = re.compile(rf"\n?{re.escape(GUIDANCE_BEGIN)}\n.*?{re.escape(GUIDANCE_END)}\n?", re.DOTALL)
    return pattern.sub("", text)


def _guidance_change(path: Path, install: bool) -> FileChange:
    before = _read(path)
    base = _without_guidance(before or "")
    if install:
        after: str | None = (base.rstrip("\n") + "\n\n" if base.strip() else "") + guidance_block()
        what = "jeeves-pruner guidance block"
    else:
        after = base if base.strip() else None
        what = "jeeves-pruner guidance block removed"
        if before is None or before == base:
            return FileChange(path, before, before, "no jeeves-pruner guidance block")
    if after == before:
        return FileChange(path, before, before, what)
    return FileChange(path, before, after, what)


def guidance_path(agent: Agent, scope: Scope, home: Path, cwd: Path, codex_dir: Path) -> Path:
    if agent == "claude":
        return home / ".claude" / "CLAUDE.md" if scope == "user" else cwd / "CLAUDE.md"
    return codex_dir / "AGENTS.md" if scope == "user" else cwd / "AGENTS.md"


# --- plan and apply --------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where one agent's configuration lives for this user and directory."""

    agent: Agent
    scope: Scope
    home: Path
    cwd: Path
    codex_dir: Path


def plan(
    target: Target, *, install: bool, guidance: bool, required: bool = False, allow_tools: bool = False
) -> list[FileChange]:
    """The changes `jeeves install` (or `uninstall`, `install=False`) makes; nothing is written.

    `allow_tools` (Claude): also the permission rule that lets `claude -p` call our tools without
    asking (what `jeeves run` passes as `--allowedTools`). Uninstall always removes a guidance
    block and that rule where it finds them. Raises:
        InstallError: a configuration file cannot be read or parsed, or Codex with
            `--scope project` (Codex reads MCP servers from `$CODEX_HOME/config.toml` only).
    """
    argv = server_argv()
    changes: list[FileChange] = []
    if target.agent == "claude":
        path = claude_config_path(target.scope, target.home, target.cwd)
        entry = claude_entry(argv) if install else None
        changes.append(_json_change(path, entry, private=target.scope == "user"))
        settings = claude_settings_path(target.scope, target.home, target.cwd)
        if allow_tools or (not install and settings.exists()):
            changes.append(_permission_change(settings, install))
    else:
        if target.scope == "project":
            raise InstallError("codex reads MCP servers from $CODEX_HOME/config.toml only: use --scope user")
        table = codex_table(argv, required=required) if install else None
        changes.append(_toml_change(target.codex_dir / "config.toml", table))
    path = guidance_path(target.agent, target.scope, target.home, target.cwd, target.codex_dir)
    if guidance or (not install and path.exists()):  # uninstall: a block install may have written
        changes.append(_guidance_change(path, install))
    return changes


def apply(changes: Sequence[FileChange]) -> None:
    """Write each changed file atomically (same directory, then rename), keeping its mode.

    Raises:
        InstallError: a file cannot be written.
    """
    for change in changes:
        if not change.changed:
            continue
        try:
            if change.after is None:
                change.path.unlink(missing_ok=True)
                continue
            change.path.parent.mkdir(parents=True, exist_ok=True)
            new_mode = PRIVATE_FILE_MODE if change.private else SHARED_FILE_MODE
            mode = change.path.stat().st_mode & 0o777 if change.path.exists() else new_mode
            fd, tmp = tempfile.mkstemp(dir=change.path.parent, prefix=f".{change.path.name}.")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    file.write(change.after)
                os.chmod(tmp, mode)
                os.replace(tmp, change.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise InstallError(f"cannot write {change.path}: {exc.strerror or exc}") from None
