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
written. Files are edited, never rewritten from scratch: our entry's fields are set, the user's
own fields in it (an `env`, say) and everything else in the file are kept — TOML through
`tomlkit`, comments and layout included — and the output names each field that changed. A file
that cannot be read back exactly (not a regular file, JSON with a number it cannot hold such as
`1e400` or a repeated key, TOML that `tomlkit` would not write back as it was) or is read-only is
refused, untouched. A symlinked file is edited through its link; the new text is written to a
temporary file beside the real one, fsynced, renamed over it with its mode, and the directory
fsynced (`~/.claude.json` is 0600). Uninstall removes our entry, the guidance block and the
permission rule, and deletes a file only when install created it (`INSTALLED_FILES` lists them)
and nothing else is in it.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import tomlkit
import tomlkit.exceptions
from tomlkit.items import Table

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
# Files install created (absolute real paths), so uninstall deletes those it emptied, and only
# those: a `~/.claude.json` that held `{"mcpServers": {}}` before install stays. Under the home.
INSTALLED_FILES = Path(".config") / "jeeves" / "installed-files.json"
# What a file install created holds once uninstall took our part out.
_EMPTY_JSON: tuple[object, ...] = ({}, {"mcpServers": {}}, {"permissions": {"allow": []}})
# New files: a user config may hold other servers' secrets; instructions are meant to be read.
PRIVATE_FILE_MODE = 0o600
SHARED_FILE_MODE = 0o644


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
            return f"removed {self.path} ({self.what}; install had created it, nothing else is in it)"
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
    """The file's text, None when absent.

    Raises:
        InstallError: not a regular file (a FIFO would hang the read), unreadable, not UTF-8.
    """
    try:
        info = path.stat()  # through a symlink: the file the agent reads
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InstallError(f"{path} is not a regular file; nothing was written")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None


# --- Claude Code: JSON -------------------------------------------------------------------


def claude_entry(argv: Sequence[str]) -> dict[str, object]:
    """The entry `claude mcp add NAME -- CMD ARGS` writes, plus `alwaysLoad` as `jeeves run` sets it:
    our tools' schemas in the first request instead of behind Claude's ToolSearch."""
    return {"type": "stdio", "command": argv[0], "args": list(argv[1:]), "env": {}, "alwaysLoad": True}


# Fields of the entry that are the user's once there (`claude mcp add` writes `"env": {}`): kept.
_CLAUDE_USER_FIELDS = frozenset({"env"})


def _strict_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(
            f"the number {text} is beyond what JSON readers hold (it would be written back as {value})"
        )
    return value


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(
            f"a key appears twice in one object ({sorted({k for k in keys if keys.count(k) > 1})})"
        )
    return dict(pairs)


def _load_json(path: Path, before: str | None) -> dict[str, object]:
    """The document, refused when writing it back would change what it says.

    Raises:
        InstallError: not JSON, not an object, or not round-trippable.
    """
    if before is None or not before.strip():
        return {}
    try:
        document = json.loads(
            before,
            parse_float=_strict_float,
            parse_constant=_refuse_constant,
            object_pairs_hook=_no_repeated_keys,
        )
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it first, nothing was written") from None
    except ValueError as exc:
        raise InstallError(
            f"{path} cannot be edited without changing it: {exc}; nothing was written"
        ) from None
    if not isinstance(document, dict):
        raise InstallError(f"{path}: expected a JSON object")
    return document


def _field_changes(old: Mapping[str, object], new: Mapping[str, object]) -> list[str]:
    """`name` for each field set or changed, `-name` for each removed."""
    return [key for key in new if old.get(key, _ABSENT) != new[key]] + [
        f"-{key}" for key in old if key not in new
    ]


_ABSENT = object()


def _json_change(path: Path, entry: dict[str, object] | None, *, private: bool) -> FileChange:
    before = _read(path)
    document = _load_json(path, before)
    if not isinstance(document.get("mcpServers", {}), dict):
        raise InstallError(f"{path}: expected a JSON object with an object `mcpServers`")
    servers: dict[str, object] = dict(document.get("mcpServers", {}))  # type: ignore[call-overload]
    name = f"mcpServers.{SERVER_KEY}"
    present = servers.get(SERVER_KEY)
    if entry is None:
        if present is None:
            return FileChange(path, before, before, f"no {name}", private=private)
        del servers[SERVER_KEY]
        what = f"{name} removed"
    else:
        current: dict[str, object] = dict(present) if isinstance(present, dict) else {}
        merged = {
            **current,
            **{k: v for k, v in entry.items() if k not in _CLAUDE_USER_FIELDS or k not in current},
        }
        changed = _field_changes(current, merged)
        # the user's: what stays as it was and is not what install writes (its own `"env": {}` is not)
        kept = sorted(k for k, v in current.items() if merged[k] == v and entry.get(k, _ABSENT) != v)
        note = f"; kept your {', '.join(kept)}" if kept and present is not None else ""
        if not changed:
            return FileChange(path, before, before, f"{name} as wanted{note}", private=private)
        servers[SERVER_KEY] = merged
        what = f"{name}: {'added' if present is None else 'set ' + ', '.join(changed)}{note}"
    document["mcpServers"] = servers
    return FileChange(path, before, json.dumps(document, indent=2) + "\n", what, private=private)


def claude_config_path(scope: Scope, home: Path, cwd: Path) -> Path:
    return home / ".claude.json" if scope == "user" else cwd / ".mcp.json"


def claude_settings_path(scope: Scope, home: Path, cwd: Path) -> Path:
    return (home if scope == "user" else cwd) / ".claude" / "settings.json"


def _permission_change(path: Path, allow: bool) -> FileChange:
    """`permissions.allow` with (or without) the rule allowing every tool of our server."""
    before = _read(path)
    document = _load_json(path, before)
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
    return FileChange(path, before, json.dumps(document, indent=2) + "\n", what)


# --- Codex: TOML, edited with tomlkit (comments and layout kept) ------------------------------


def codex_table(argv: Sequence[str], *, required: bool = False) -> str:
    """`[mcp_servers.jeeves_pruner]` for a stdio server (JSON strings are TOML basic strings).

    `required`: Codex gives an optional server a short time after its session starts to list its
    tools and builds the first turn without them otherwise (the stdio server answers well within
    it: `benchmarks/bench_startup.py`). `required = true` makes Codex wait — and refuse to start
    a session if the server cannot start (no fail-open).
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


# The keys of our table that install owns (set, or removed when not wanted); the user's own keys
# in it (`env`, `cwd`, a comment) stay. `tools.bash.approval_mode` is one dotted key.
_CODEX_OWNED = ("command", "args", "startup_timeout_sec", "tool_timeout_sec", "disabled_tools", "required")


def _load_toml(path: Path, text: str) -> tomlkit.TOMLDocument:
    """The document, refused when tomlkit would not write it back as it was.

    Raises:
        InstallError: not TOML, or not round-trippable.
    """
    try:
        tomllib.loads(text)  # the reader Codex's own parser agrees with on what is valid
        document = tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError) as exc:
        raise InstallError(f"{path} is not valid TOML ({exc}); fix it first, nothing was written") from None
    if tomlkit.dumps(document) != text:
        raise InstallError(f"{path} cannot be edited without changing its other lines; nothing was written")
    return document


def _our_table(document: tomlkit.TOMLDocument, path: Path) -> Table | None:
    servers = document.get("mcp_servers")
    if servers is None or SERVER_KEY not in servers:
        return None
    table = servers[SERVER_KEY]
    if not isinstance(table, Table):
        # e.g. the entry written inline (`[mcp_servers]` / `jeeves_pruner = {...}`): not ours to rewrite.
        raise InstallError(
            f"cannot edit {path} safely: [mcp_servers.{SERVER_KEY}] is not a plain table there"
        )
    return table


def _set_approval(table: Table, mode: str) -> bool:
    """`tools.bash.approval_mode = mode` in our table; whether it changed."""
    tools = table.get("tools")
    bash = tools.get("bash") if isinstance(tools, Table) else None
    if isinstance(bash, Table):
        if bash.get("approval_mode") == mode:
            return False
        bash["approval_mode"] = mode
        return True
    if tools is not None:
        raise InstallError(f"cannot edit [mcp_servers.{SERVER_KEY}] safely: its `tools` is not a plain table")
    table.append(tomlkit.key(["tools", "bash", "approval_mode"]), mode)
    return True


def _toml_change(path: Path, table: str | None) -> FileChange:
    before = _read(path)
    current = before or ""
    document = _load_toml(path, current)
    present = _our_table(document, path)
    header = f"[mcp_servers.{SERVER_KEY}]"
    if table is None:
        if present is None:
            return FileChange(path, before, before, f"no {header}", private=True)
        del document["mcp_servers"][SERVER_KEY]
        return FileChange(path, before, tomlkit.dumps(document), f"{header} removed", private=True)
    if present is None:
        after = (current.rstrip("\n") + "\n\n" if current.strip() else "") + table + "\n"
        _load_toml(path, after)
        return FileChange(path, before, after, table.replace("\n", "; "), private=True)
    wanted = tomllib.loads(table)["mcp_servers"][SERVER_KEY]
    changed = []
    for key in _CODEX_OWNED:
        if key in wanted and present.get(key) != wanted[key]:
            present[key] = wanted[key]
            changed.append(key)
        elif key not in wanted and key in present:
            del present[key]
            changed.append(f"-{key}")
    if _set_approval(present, wanted["tools"]["bash"]["approval_mode"]):
        changed.append("tools.bash.approval_mode")
    kept = sorted(k for k in present if k not in _CODEX_OWNED and k != "tools")
    note = f"; kept your {', '.join(kept)}" if kept else ""
    if not changed:
        return FileChange(path, before, before, f"{header} as wanted{note}", private=True)
    after = tomlkit.dumps(document)
    return FileChange(path, before, after, f"{header}: set {', '.join(changed)}{note}", private=True)


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
        after = base
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


def _created_by_install(home: Path) -> set[str]:
    try:
        listed = json.loads((home / INSTALLED_FILES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {p for p in listed if isinstance(p, str)} if isinstance(listed, list) else set()


def _emptied(change: FileChange) -> bool:
    """Whether uninstall left nothing but an empty shell in the file."""
    text = change.after or ""
    if not text.strip():
        return True
    if change.path.suffix != ".json":
        return False
    try:
        return json.loads(text) in _EMPTY_JSON
    except ValueError:
        return False


def plan(
    target: Target, *, install: bool, guidance: bool, required: bool = False, allow_tools: bool = False
) -> list[FileChange]:
    """The changes `jeeves install` (or `uninstall`, `install=False`) makes; nothing is written.

    `allow_tools` (Claude): also the permission rule that lets `claude -p` call our tools without
    asking (what `jeeves run` passes as `--allowedTools`). Uninstall always removes a guidance
    block and that rule where it finds them. Raises:
        InstallError: a configuration file cannot be read, parsed or written (read-only), or Codex with
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
    if not install:
        created = _created_by_install(target.home)
        changes = [
            replace(c, after=None) if c.changed and _emptied(c) and os.path.realpath(c.path) in created else c
            for c in changes
        ]
    for change in changes:  # a dry run says it too
        if change.changed:
            _check_writable(change)
    return changes


def _check_writable(change: FileChange) -> None:
    """A read-only file says "leave me alone": refused, as a failed write would be."""
    try:
        mode = change.path.stat().st_mode
    except FileNotFoundError:
        return
    if not mode & 0o222:
        raise InstallError(
            f"{change.path} is read-only (mode {stat.S_IMODE(mode):04o}); make it writable or edit it "
            "by hand, nothing was written"
        )


def apply(changes: Sequence[FileChange], home: Path) -> None:
    """Write each changed file durably and atomically, keeping its mode, through a symlink.

    The new text goes to a temporary file beside the real file (a symlink's target: the link
    stays, a dotfiles repository sees the edit), is fsynced, renamed over it, and the directory
    fsynced: a crash leaves the old file or the new one, never a truncated one.

    Raises:
        InstallError: a file is read-only or cannot be written.
    """
    for change in changes:
        if change.changed:
            _check_writable(change)
    created = _created_by_install(home)
    for change in changes:
        if not change.changed:
            continue
        real = Path(os.path.realpath(change.path))
        if change.after is None:  # a file install created, empty again (`plan`)
            try:
                real.unlink(missing_ok=True)
            except OSError as exc:
                raise InstallError(f"cannot remove {change.path}: {exc.strerror or exc}") from None
            created.discard(str(real))
            continue
        if change.before is None:
            created.add(str(real))
        try:
            real.parent.mkdir(parents=True, exist_ok=True)
            new_mode = PRIVATE_FILE_MODE if change.private else SHARED_FILE_MODE
            mode = stat.S_IMODE(real.stat().st_mode) if real.exists() else new_mode
            fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    file.write(change.after)
                    file.flush()
                    os.fchmod(file.fileno(), mode)
                    os.fsync(file.fileno())
                os.replace(tmp, real)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _fsync_directory(real.parent)
        except OSError as exc:
            raise InstallError(f"cannot write {change.path}: {exc.strerror or exc}") from None
    _record_created(home, created)


def _record_created(home: Path, created: set[str]) -> None:
    """Keep the list of files install created (best effort: without it uninstall deletes none)."""
    ledger = home / INSTALLED_FILES
    try:
        ledger.parent.mkdir(parents=True, exist_ok=True)
        ledger.write_text(json.dumps(sorted(created), indent=2) + "\n", encoding="utf-8")
    except OSError:
        pass


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable (the directory entry)."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
