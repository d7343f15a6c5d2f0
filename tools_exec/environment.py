"""The environment `bash` children get: the server's, minus secrets, with what the login profile adds.

`bash -lc` sources /etc/profile and ~/.profile on every call, which costs tens of milliseconds on
a typical developer machine (pyenv, nvm, cargo init). `login_environment` runs the profile once per
distinct server environment, captures the environment it produces, and `run_bash` then starts a
plain `bash -c` under the server's environment plus what the profile added (`under_profile`): the
caller's `PATH` first, as the agent's own shell has it, then the profile's other entries, at the
cost of a `bash -c`. Overrides passed with the call are applied last, so they win (under `bash -lc`
a profile resetting PATH would silently undo them).

The capture is bounded by the caller's budget (`run_bash` gives it at most half its timeout): a
slow profile never makes a call outlive its `timeout_ms`. Without a snapshot (profile too slow for
this call, failing, or exiting) the command runs under the sanitized server environment alone.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio

from tools_exec.errors import ToolExecError
from tools_exec.limits import LOGIN_ENV_CACHE_SIZE, LOGIN_ENV_MAX_BYTES, LOGIN_ENV_TIMEOUT_S
from tools_exec.supervise import supervise
from tools_exec.text import CappedBuffer, OutputBudget

ENV_KEY_PATTERN = re.compile(r"^[A-Z_][A-Z0-9_]*$")

# Names dropped from the server environment before any child sees it. Matched on the upper-cased
# name, so `github_token` goes too: API_KEY / APIKEY, TOKEN, CREDENTIAL(S), JWT, AUTH as a word of
# the name (OPENAI_API_KEY, GITHUB_TOKEN, TOKEN_GITHUB, CI_JOB_JWT, DOCKER_AUTH_CONFIG, SSH_AUTH_SOCK:
# an agent socket lets a child sign as the user), a final `KEY` (AWS_SECRET_ACCESS_KEY) or `PASS`
# (SSHPASS, SMTP_PASS), `_PAT` (GITHUB_PAT), `_PWD` (MYSQL_PWD; not `PWD` itself), and PRIVATE_KEY,
# SECRET, PASSWORD, PASSWD, PASSPHRASE, WEBHOOK (a webhook's URL is its credential) anywhere.
# One POSIX ERE, so bash (`[[ =~ ]]`, see `secret_unset_prelude`) applies the very same rule.
_SECRET_NAME_ERE = (
    r"(^|_)(API_?KEY|TOKEN|CREDENTIALS?|JWT|AUTH)(_|$)|(^|_)KEY$|PASS$|_(PAT|PWD)$"
    r"|PRIVATE_?KEY|SECRET|PASSWORD|PASSWD|PASSPHRASE|WEBHOOK"
)
_SECRET_NAME = re.compile(_SECRET_NAME_ERE)
_SECRET_EXACT = frozenset(
    {"JEEVES_MCP_PRUNER_TOKEN", "JEEVES_MCP_TOKEN", "GH_TOKEN", "NPM_TOKEN", "GPG_AGENT_INFO"}
)
# Values that are credentials whatever the variable is called, matched on the lower-cased value:
# a URL with a password (`postgres://app:hunter2@db/app`, a `/` in the password too, but not a
# port followed by a path: `http://host:8080/@scope`), a connection string's or query's credential
# (`AccountKey=` of Azure's, JDBC's `?password=`), a webhook URL (Slack's, Discord's), a JWT, a
# PEM private key, a registry auth config (DOCKER_AUTH_CONFIG's `{"auths": …}`).
_SECRET_VALUE_ERE = (
    r"^[a-z][a-z0-9+.-]*://[^/?#@[:space:]]*:([0-9]*[^@[:space:]0-9/][^@[:space:]]*)?@"
    r"|(^|[?&;[:space:]])(password|passwd|pwd|accountkey|sharedaccesskey|sharedaccesssignature"
    r"|client_secret|access_token|api_?key)=[^&;[:space:]]"
    r"|://hooks\.slack\.com/|/api/webhooks/|^eyj[a-z0-9_-]+\.eyj|-----begin [a-z ]*private key-----"
    r'|"auths?"[[:space:]]*:'
)
_SECRET_VALUE = re.compile(_SECRET_VALUE_ERE.replace("[:space:]", r"\s"))

# The user's own choice, read from the server's environment: comma- or space-separated names,
# `*` as a wildcard. ALLOW passes a variable the rule would drop (SSH_AUTH_SOCK for `git` over
# ssh); DENY drops one it would pass. DENY wins over ALLOW.
ENV_ALLOW_VAR = "JEEVES_MCP_PRUNER_ENV_ALLOW"
ENV_DENY_VAR = "JEEVES_MCP_PRUNER_ENV_DENY"
_PATTERN_SHAPE = re.compile(r"^[A-Z0-9_*]+$")

# Variables bash sets itself in every shell; copying the snapshot's values would be wrong.
_SHELL_OWNED = frozenset({"PWD", "OLDPWD", "SHLVL", "_"})
_SNAPSHOT_MARKER = b"__JEEVES_LOGIN_ENV__\0"
_SNAPSHOT_SCRIPT = 'printf "%s\\0" __JEEVES_LOGIN_ENV__; command -p env -0'

_Key = tuple[str, tuple[tuple[str, str], ...]]
_snapshots: OrderedDict[_Key, dict[str, str] | None] = OrderedDict()
_locks: dict[_Key, anyio.Lock] = {}  # one capture per key at a time; dropped once nobody waits


@dataclass(frozen=True)
class EnvPolicy:
    """The user's allow and deny lists, as POSIX EREs over upper-cased names ("" = none)."""

    allow_ere: str = ""
    deny_ere: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> EnvPolicy:
        """The lists in `env` (`JEEVES_MCP_PRUNER_ENV_ALLOW` / `_DENY`); malformed entries ignored."""
        return cls(_names_ere(env.get(ENV_ALLOW_VAR, "")), _names_ere(env.get(ENV_DENY_VAR, "")))

    def allows(self, name: str) -> bool:
        return bool(self.allow_ere) and re.search(self.allow_ere, name) is not None

    def denies(self, name: str) -> bool:
        return bool(self.deny_ere) and re.search(self.deny_ere, name) is not None


def _names_ere(value: str) -> str:
    names = [n for n in re.split(r"[,\s]+", value.strip().upper()) if n and _PATTERN_SHAPE.match(n)]
    return "|".join(f"^{n.replace('*', '.*')}$" for n in names)


def is_secret_name(name: str) -> bool:
    """True for variable names that look like credentials and must not reach a child."""
    upper = name.upper()
    return upper in _SECRET_EXACT or _SECRET_NAME.search(upper) is not None


def is_secret(name: str, value: str, policy: EnvPolicy | None = None) -> bool:
    """Whether the variable must not reach a child: the user's deny list, else the built-in rule
    (secret-looking name, or a value shaped like a credential) unless the allow list passes it."""
    policy = policy or EnvPolicy()
    upper = name.upper()
    if policy.denies(upper):
        return True
    if not (is_secret_name(name) or _SECRET_VALUE.search(value.lower())):
        return False
    return not policy.allows(upper)


def sanitized_env(base: Mapping[str, str], policy: EnvPolicy | None = None) -> dict[str, str]:
    """`base` without secret variables (see `is_secret`), under `policy` (default: read from `base`)."""
    policy = EnvPolicy.from_env(base) if policy is None else policy
    return {key: value for key, value in base.items() if not is_secret(key, value, policy)}


def secret_unset_prelude(
    overrides: Mapping[str, str], policy: EnvPolicy | None = None, caller_path: str | None = None
) -> str:
    """Bash that drops secret variables a login profile exported, puts `caller_path` back in front
    of the profile's `PATH`, then re-applies `overrides`.

    For `bash -lc` the profile runs inside the child, after we sanitized its environment; this
    prefix (joined to the command with `;`, no newline, so line numbers in errors do not move)
    applies `is_secret` there too (`policy` default: the server's environment). Overrides are
    re-exported so they win, as in cached mode.
    """
    policy = EnvPolicy.from_env(os.environ) if policy is None else policy
    exact = "|".join(sorted(_SECRET_EXACT))
    never = "^$"  # an ERE no variable name matches: an empty list
    parts = [
        f"__jeeves_re={shlex.quote(f'{_SECRET_NAME_ERE}|^({exact})$')}",
        f"__jeeves_value={shlex.quote(_SECRET_VALUE_ERE)}",
        f"__jeeves_allow={shlex.quote(policy.allow_ere or never)}",
        f"__jeeves_deny={shlex.quote(policy.deny_ere or never)}",
        "for __jeeves_v in $(compgen -e 2>/dev/null); do"
        " __jeeves_n=${__jeeves_v^^};"
        " if [[ $__jeeves_n =~ $__jeeves_deny ]]"
        " || { { [[ $__jeeves_n =~ $__jeeves_re ]] || [[ ${!__jeeves_v,,} =~ $__jeeves_value ]]; }"
        ' && ! [[ $__jeeves_n =~ $__jeeves_allow ]]; }; then unset "$__jeeves_v"; fi; done',
        "unset __jeeves_v __jeeves_n __jeeves_re __jeeves_value __jeeves_allow __jeeves_deny",
    ]
    if caller_path is not None:  # the caller's entries first, as in cached mode (`under_profile`)
        parts.append(f"export PATH={shlex.quote(caller_path)}${{PATH:+:$PATH}}")
    parts += [f"export {key}={shlex.quote(value)}" for key, value in overrides.items()]
    return "; ".join(parts) + "; "


def validate_overrides(overrides: Mapping[str, str]) -> dict[str, str]:
    """Check caller-supplied variables: keys `^[A-Z_][A-Z0-9_]*$`, no NUL in values.

    Overrides are the caller's explicit choice, so they are not filtered for secrets.

    Raises:
        ValueError: a key has another shape or a value holds NUL (exec would refuse it).
    """
    for key, value in overrides.items():
        if not ENV_KEY_PATTERN.match(key):
            raise ValueError(f"env key {key!r} does not match {ENV_KEY_PATTERN.pattern}")
        if "\0" in value:
            raise ValueError(f"env value of {key} contains a NUL byte")
    return dict(overrides)


async def login_environment(
    bash: str, base: Mapping[str, str], cwd: Path, *, timeout_s: float = LOGIN_ENV_TIMEOUT_S
) -> dict[str, str] | None:
    """The environment a login bash builds from `base` (secret-looking names removed), cached per
    (bash, base); None when there is no snapshot to use, and callers run without the profile.

    The capture runs once per key, whoever asks first; concurrent callers wait for it. Waiting and
    capturing together take at most `timeout_s` (capped by `LOGIN_ENV_TIMEOUT_S`). A capture cut
    short by a caller's smaller budget is not cached (the next call tries again); a profile that
    fails on its own (exits nonzero, outlives `LOGIN_ENV_TIMEOUT_S`) is remembered as None.

    Raises:
        SpawnError: `bash` itself cannot be started.
    """
    key = (bash, tuple(sorted(base.items())))
    if key in _snapshots:
        _snapshots.move_to_end(key)
        return _snapshots[key]
    budget = min(timeout_s, LOGIN_ENV_TIMEOUT_S)
    deadline = time.monotonic() + budget
    lock = _locks.setdefault(key, anyio.Lock())
    # Only a capture that had all of LOGIN_ENV_TIMEOUT_S can condemn a profile as too slow.
    full_budget = timeout_s >= LOGIN_ENV_TIMEOUT_S and not lock.locked()
    with anyio.move_on_after(budget) as waiting:
        await lock.acquire()
    if waiting.cancelled_caught:
        return None  # still running for someone else when our budget ran out
    try:
        if key in _snapshots:  # captured while we waited
            return _snapshots[key]
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        snapshot, timed_out = await _capture(bash, base, cwd, remaining)
        if timed_out and not full_budget:
            return None  # our budget, not the profile, was too short: not a verdict to cache
        _snapshots[key] = snapshot
        while len(_snapshots) > LOGIN_ENV_CACHE_SIZE:
            _snapshots.popitem(last=False)
        return snapshot
    finally:
        lock.release()
        if not lock.statistics().tasks_waiting and _locks.get(key) is lock:
            del _locks[key]


def under_profile(caller: Mapping[str, str], profile: Mapping[str, str]) -> dict[str, str]:
    """The caller's environment with what the login profile adds: its new variables, and its `PATH`
    entries the caller's `PATH` lacks, after the caller's.

    The caller's values win: a profile that resets `PATH` (Debian's /etc/profile does, as root
    for every user) silently dropped an activated venv, nvm, pyenv shims, a project's
    `node_modules/.bin`, which the agent's own shell sees (`python: command not found`).
    """
    merged = {**profile, **caller}
    if "PATH" in caller and "PATH" in profile:
        mine = caller["PATH"].split(os.pathsep)
        extra = [entry for entry in profile["PATH"].split(os.pathsep) if entry and entry not in mine]
        merged["PATH"] = os.pathsep.join([*mine, *extra])
    return merged


def clear_login_environment_cache() -> None:
    """Forget captured profiles (after editing ~/.profile, or between tests)."""
    _snapshots.clear()


async def _capture(
    bash: str, base: Mapping[str, str], cwd: Path, timeout_s: float
) -> tuple[dict[str, str] | None, bool]:
    """(the sanitized snapshot or None, whether the capture timed out)."""
    budget = OutputBudget(LOGIN_ENV_MAX_BYTES)
    stdout = CappedBuffer(budget)
    stderr = CappedBuffer(OutputBudget(0))
    try:
        outcome = await supervise(
            [bash, "-lc", _SNAPSHOT_SCRIPT],
            cwd=cwd,
            env=base,
            timeout_s=timeout_s,
            stdout_sink=stdout,
            stderr_sink=stderr,
        )
    except ToolExecError as exc:
        if exc.code == "spawn_error":
            raise
        return None, False
    if outcome.returncode != 0 or stdout.truncated:
        return None, outcome.timed_out
    snapshot = parse_env_block(stdout.raw())
    # The profile may export credentials (`export OPENAI_API_KEY=...` in ~/.bash_profile): the same
    # rule as for the server's own environment applies, and the cache never holds them.
    return (None if snapshot is None else sanitized_env(snapshot, EnvPolicy.from_env(base))), False


def parse_env_block(raw: bytes) -> dict[str, str] | None:
    """Parse `env -0` output preceded by the marker; profile chatter before the marker is ignored."""
    at = raw.rfind(_SNAPSHOT_MARKER)
    if at < 0:
        return None
    env: dict[str, str] = {}
    for item in raw[at + len(_SNAPSHOT_MARKER) :].split(b"\0"):
        name, sep, value = item.partition(b"=")
        if not sep or not name:
            continue
        key = name.decode("utf-8", errors="surrogateescape")
        if key in _SHELL_OWNED:
            continue
        env[key] = value.decode("utf-8", errors="surrogateescape")
    return env
