from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from tools_exec import environment as environment_module
from tools_exec.environment import (
    clear_login_environment_cache,
    is_secret_name,
    login_environment,
    parse_env_block,
    sanitized_env,
    validate_overrides,
)
from tools_exec.process import LoginShell, run_bash

pytestmark = pytest.mark.anyio


def login_base(home: Path) -> dict[str, str]:
    """The base environment to capture `home`'s login profile from, the login cache cleared."""
    clear_login_environment_cache()
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "name",
    [
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "DEEPINFRA_API_KEY",
        "JEEVES_MCP_PRUNER_TOKEN",
        "JEEVES_MCP_TOKEN",
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "DB_PASSWORD",
        "PGPASSWORD",
        "CLIENT_SECRET",
        "github_token",
        "OPENAI_APIKEY",
        "SSH_PRIVATE_KEY",
        "NPM_CONFIG__AUTH",
        "GOOGLE_APPLICATION_CREDENTIALS",
        # issue 16: these passed the filter
        "GITHUB_PAT",
        "MYSQL_PWD",
        "SSH_AUTH_SOCK",
        "GPG_AGENT_INFO",
        "SMTP_PASS",
        "GPG_PASSPHRASE",
        # issue 29: these passed the filter
        "SSHPASS",
        "CI_JOB_JWT",
        "DOCKER_AUTH_CONFIG",
        "PRIVATE_KEY_PEM",
        "TOKEN_GITHUB",
        "SLACK_WEBHOOK_URL",
    ],
)
def test_secret_looking_names_are_dropped(name: str) -> None:
    assert is_secret_name(name)
    assert sanitized_env({name: "x", "PATH": "/bin"}) == {"PATH": "/bin"}


@pytest.mark.parametrize(
    "name",
    [
        "PATH",
        "HOME",
        "LANG",
        "TOKENIZERS_PARALLELISM",
        "KEYMAP",
        "PWD",
        "OLDPWD",
        "PATH_INFO",
        "GIT_AUTHOR_NAME",
        "AWS_ACCESS_KEY_ID",
        "PGPASSFILE",
    ],
)
def test_ordinary_names_are_kept(name: str) -> None:
    assert not is_secret_name(name)


SECRETS = {
    "DATABASE_URL": "postgres://app:hunter2@db.internal:5432/app",
    "GITHUB_PAT": "ghp_pat",
    "MYSQL_PWD": "mysql-pwd",
    "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock",
}
KEPT = {
    "SERVICE_URL": "https://db.internal/app",
    "GIT_URL": "https://user@host/repo.git",
    "REGISTRY": "http://localhost:4873/@scope/pkg",  # a port and a path holding `@`: no password
    "JDBC_URL": "jdbc:postgresql://db:5432/app?user=app&ssl=true",
    "LS_COLORS": "di=01;34:ln=01;36",
    "PATH": "/usr/bin:/bin",
}
# issue 29: values shaped like credentials, under names the name rule lets through
SECRET_VALUES = {
    "DB_URL": "postgres://app:pa/ss+word@db.internal/app",
    "AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc123==;",
    "JDBC_DSN": "jdbc:mysql://db:3306/app?user=app&password=hunter2",
    "NOTIFY_URL": "https://hooks.slack.com/services/T000/B000/XXXX",
    "ID_BLOB": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJl",
    "DEPLOY_PEM": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----",
    "REGISTRY_CONFIG": '{"auths": {"registry.example.com": {"auth": "dXNlcjpwYXNz"}}}',
}


def test_values_shaped_like_credentials_are_dropped_whatever_their_name() -> None:
    assert sanitized_env({**SECRET_VALUES, **KEPT}) == KEPT


def test_a_url_holding_a_password_is_dropped_whatever_its_name() -> None:
    assert sanitized_env({**SECRETS, **KEPT}) == KEPT


def test_the_allow_and_deny_lists_change_the_rule_deny_winning() -> None:
    base = {
        **SECRETS,
        **KEPT,
        "FOO_BAR": "x",
        "JEEVES_MCP_PRUNER_ENV_ALLOW": "ssh_auth_sock, database_*",
        "JEEVES_MCP_PRUNER_ENV_DENY": "FOO_*,DATABASE_URL",
    }
    kept = sanitized_env(base)
    assert "SSH_AUTH_SOCK" in kept
    assert "FOO_BAR" not in kept
    assert "DATABASE_URL" not in kept  # denied and allowed: deny wins
    assert "GITHUB_PAT" not in kept


@pytest.mark.parametrize("login_shell", ["cached_env", "every_call", "off"])
async def test_bash_children_see_none_of_them_in_every_login_mode(
    root: Path,
    home_with_profile: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    login_shell: LoginShell,
) -> None:
    # A real bash: the variables come from the server's environment and from a login profile.
    clear_login_environment_cache()
    home = home_with_profile(
        "export PROFILE_DSN='mysql://root:toor@localhost/db'\nexport API_PAT=p\n"
        "export PROFILE_HOOK='https://hooks.slack.com/services/T1/B1/Z'\n"
    )
    monkeypatch.setenv("HOME", str(home))
    for name, value in {**SECRETS, **SECRET_VALUES, "KEEP_ME": "ok", "ALLOWED_PAT": "a"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("JEEVES_MCP_PRUNER_ENV_ALLOW", "ALLOWED_PAT")
    result = await run_bash(root, "env -0", login_shell=login_shell)
    names = {item.partition("=")[0] for item in result.stdout.split("\0")}
    dropped = {*SECRETS, *SECRET_VALUES, "PROFILE_DSN", "API_PAT", "PROFILE_HOOK"}
    assert not names & dropped, names & dropped
    assert {"KEEP_ME", "ALLOWED_PAT"} <= names


def test_overrides_with_lowercase_or_odd_keys_are_refused() -> None:
    assert validate_overrides({"A_1": "x", "_B": ""}) == {"A_1": "x", "_B": ""}
    for bad in ("a", "1A", "A-B", "A B", ""):
        with pytest.raises(ValueError, match="env key"):
            validate_overrides({bad: "x"})


def test_env_block_after_profile_chatter_is_parsed_without_shell_owned_variables() -> None:
    raw = b"hello from .profile\n__JEEVES_LOGIN_ENV__\0PATH=/a:/b\0PWD=/x\0SHLVL=2\0MULTI=line1\nline2\0"
    assert parse_env_block(raw) == {"PATH": "/a:/b", "MULTI": "line1\nline2"}


def test_env_block_without_the_marker_is_no_snapshot() -> None:
    assert parse_env_block(b"PATH=/a\0") is None


async def test_profile_that_exits_early_gives_no_snapshot(
    tmp_path: Path, home_with_profile: Callable[[str], Path]
) -> None:
    base = login_base(home_with_profile("exit 3\n"))
    with anyio.fail_after(10):
        snapshot = await login_environment("bash", base, tmp_path)
    assert snapshot is None


async def test_snapshot_is_computed_once_per_environment(
    tmp_path: Path, home_with_profile: Callable[[str], Path]
) -> None:
    counter = tmp_path / "count"
    base = login_base(home_with_profile(f"echo run >> {counter}\nexport FROM_PROFILE=1\n"))
    with anyio.fail_after(10):
        first = await login_environment("bash", base, tmp_path)
        second = await login_environment("bash", base, tmp_path)
    assert first is not None
    assert first == second
    assert first["FROM_PROFILE"] == "1"
    assert counter.read_text() == "run\n"


async def test_concurrent_first_calls_run_the_profile_once(
    tmp_path: Path, home_with_profile: Callable[[str], Path]
) -> None:
    counter = tmp_path / "count"
    # The sleep keeps the first capture running while the second caller arrives.
    base = login_base(home_with_profile(f"echo run >> {counter}\nsleep 0.2\nexport FROM_PROFILE=1\n"))
    snapshots: list[dict[str, str] | None] = []

    async def capture() -> None:
        snapshots.append(await login_environment("bash", base, tmp_path))

    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(capture)
            group.start_soon(capture)
    assert counter.read_text() == "run\n"
    assert [snapshot and snapshot["FROM_PROFILE"] for snapshot in snapshots] == ["1", "1"]


async def test_a_capture_cut_short_by_the_callers_budget_is_retried_later(
    tmp_path: Path, home_with_profile: Callable[[str], Path]
) -> None:
    base = login_base(home_with_profile("sleep 0.3\nexport FROM_PROFILE=1\n"))
    with anyio.fail_after(10):
        hurried = await login_environment("bash", base, tmp_path, timeout_s=0.05)
        patient = await login_environment("bash", base, tmp_path, timeout_s=5)
    assert hurried is None
    assert patient is not None
    assert patient["FROM_PROFILE"] == "1"


async def test_a_profile_slower_than_the_whole_capture_bound_is_remembered_as_unusable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home_with_profile: Callable[[str], Path]
) -> None:
    monkeypatch.setattr(environment_module, "LOGIN_ENV_TIMEOUT_S", 0.2)  # the real 10 s, scaled down
    counter = tmp_path / "count"
    base = login_base(home_with_profile(f"echo run >> {counter}\nsleep 5\n"))
    with anyio.fail_after(10):
        first = await login_environment("bash", base, tmp_path, timeout_s=0.2)
        second = await login_environment("bash", base, tmp_path, timeout_s=0.2)
    assert (first, second) == (None, None)
    assert counter.read_text() == "run\n"  # the verdict was cached: the profile did not run again
