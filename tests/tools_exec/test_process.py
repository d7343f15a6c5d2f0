from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import psutil
import pytest

from tools_exec import process as process_module
from tools_exec.errors import InvalidCwdError, SpawnError, ToolTimeoutError
from tools_exec.paths import resolve_inside
from tools_exec.process import BashResult, run_bash

pytestmark = pytest.mark.anyio


def _kept(result: BashResult, stream: str) -> int:
    """Bytes of `stream` shown (the marker line aside)."""
    total = result.stdout_total_bytes if stream == "stdout" else result.stderr_total_bytes
    omitted = result.omitted.get(stream)
    return total - (omitted.bytes if omitted else 0)


async def test_stdout_stderr_and_exit_code_are_captured(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "echo out; echo err >&2")
    assert (result.stdout, result.stderr, result.exit_code) == ("out\n", "err\n", 0)
    assert not result.timed_out
    assert not result.truncated
    assert result.cwd == str(root.resolve())  # noqa: ASYNC240  # a test assertion, not a hot path


async def test_nonzero_exit_is_returned_not_raised(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "echo partial; exit 7")
    assert result.exit_code == 7
    assert result.stdout == "partial\n"


async def test_death_by_signal_is_reported_as_128_plus_the_signal(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "kill -9 $$")
    assert result.exit_code == 128 + 9


async def test_timeout_kills_the_grandchild_holding_stdout(
    root: Path, is_gone: Callable[[int], bool]
) -> None:
    # The background sleep inherits stdout: waiting for EOF would hang for 999 s, far past the
    # hang guard. How soon after the timeout it returns: benchmarks/bench_tools.py.
    with anyio.fail_after(5), pytest.raises(ToolTimeoutError) as caught:
        await run_bash(root, "sleep 999 & echo $!; sleep 999", timeout_ms=500, login_shell="off")
    partial = caught.value.partial
    assert isinstance(partial, BashResult)
    assert partial.timed_out
    assert partial.exit_code is None
    grandchild = int(partial.stdout.split()[0])
    assert is_gone(grandchild)
    assert caught.value.code == "timeout"


async def test_timeout_escalates_to_sigkill_when_the_shell_ignores_sigterm(
    root: Path, is_gone: Callable[[int], bool]
) -> None:
    with anyio.fail_after(5), pytest.raises(ToolTimeoutError) as caught:
        await run_bash(
            root, "trap '' TERM; echo $$; while :; do sleep 0.05; done", timeout_ms=300, login_shell="off"
        )
    assert isinstance(caught.value.partial, BashResult)
    assert caught.value.partial.timed_out
    assert is_gone(int(caught.value.partial.stdout.split()[0]))


async def test_background_job_left_in_the_group_is_killed_when_the_command_returns(
    root: Path, is_gone: Callable[[int], bool]
) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "sleep 999 > /dev/null 2>&1 & echo $!")
    assert result.exit_code == 0
    assert is_gone(int(result.stdout))


async def test_grandchild_that_left_the_group_cannot_delay_the_return(
    root: Path, kill_if_alive: Callable[[int], None]
) -> None:
    # After a normal exit a `setsid` process survives on purpose (README: how to detach); only a
    # timeout or a cancellation also kills the descendants still in the shell's tree.
    with anyio.fail_after(5):
        result = await run_bash(root, "setsid sleep 999 & echo $!", login_shell="off")
    pid = int(result.stdout)
    try:
        assert result.exit_code == 0  # returned at all: waiting for its EOF would take 999 s
    finally:
        kill_if_alive(pid)  # it escaped our group on purpose; we started it, we end it


async def test_timeout_also_kills_a_descendant_that_left_the_group(
    root: Path, wait_gone: Callable[[int, float], bool], kill_if_alive: Callable[[int], None]
) -> None:
    with anyio.fail_after(5), pytest.raises(ToolTimeoutError) as caught:
        await run_bash(root, "setsid sleep 999 & echo $!; sleep 999", timeout_ms=300, login_shell="off")
    assert isinstance(caught.value.partial, BashResult)
    pid = int(caught.value.partial.stdout)
    try:
        assert await anyio.to_thread.run_sync(wait_gone, pid, 2.0)
    finally:
        kill_if_alive(pid)


async def test_100_mb_output_is_capped_with_bounded_memory(root: Path) -> None:
    me = psutil.Process()
    baseline = me.memory_info().rss
    peak = baseline
    done = anyio.Event()

    async def sample_rss() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, me.memory_info().rss)
            await anyio.sleep(0.005)  # a sampling interval, not a synchronisation

    async with anyio.create_task_group() as group:
        group.start_soon(sample_rss)
        with anyio.fail_after(30):
            result = await run_bash(
                root, "head -c 100000000 /dev/zero | tr '\\0' 'y'", max_output_bytes=65536
            )
        done.set()
    assert result.exit_code == 0
    assert result.stdout_total_bytes == 100_000_000  # the child was drained to the end, never blocked
    assert result.truncated
    # a quarter of the cap from the head, three quarters from the tail, one marker line between
    omitted = 100_000_000 - 65536
    assert result.stdout == "y" * 16384 + f"\n⟦TRUNCATED: {omitted} bytes not shown⟧\n" + "y" * 49152
    assert result.omitted["stdout"].bytes == omitted
    assert peak - baseline < 32 * 1024 * 1024, f"RSS grew by {(peak - baseline) / 1e6:.1f} MB"


async def test_stdout_and_stderr_share_the_byte_cap(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(
            root, "printf 'a%.0s' $(seq 3000); printf 'b%.0s' $(seq 3000) >&2", max_output_bytes=4000
        )
    assert _kept(result, "stdout") + _kept(result, "stderr") == 4000
    assert result.stdout_total_bytes + result.stderr_total_bytes == 6000
    assert result.truncated


async def test_a_command_flooding_stdout_still_shows_its_error_message(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(
            root,
            "head -c 10000 /dev/zero | tr '\\0' y; echo 'error: boom' >&2; exit 1",
            max_output_bytes=4000,
        )
    assert result.stderr == "error: boom\n"
    assert _kept(result, "stdout") == 4000 - len("error: boom\n")
    assert result.truncated


async def test_stderr_keeps_only_its_quarter_when_both_streams_overflow(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(
            root, "head -c 9000 /dev/zero | tr '\\0' e >&2; head -c 9000 /dev/zero", max_output_bytes=4000
        )
    assert (_kept(result, "stdout"), _kept(result, "stderr")) == (3000, 1000)


async def test_output_cap_cuts_on_a_utf8_boundary(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "for i in $(seq 1000); do printf 'é'; done", max_output_bytes=1025)
    head, marker, tail = result.stdout.split("\n")
    assert set(head + tail) == {"é"}  # both cuts on a character boundary
    assert marker.startswith("⟦TRUNCATED:")


async def test_invalid_utf8_output_is_replaced(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "printf 'ok \\377\\376 end'")
    assert result.stdout == "ok \ufffd\ufffd end"


async def test_stdin_is_dev_null(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "cat; read line; echo status=$?")
    assert result.stdout == "status=1\n"


async def test_command_leads_its_own_session(root: Path) -> None:
    with anyio.fail_after(5):
        result = await run_bash(root, "echo $$ $(cut -d' ' -f6 /proc/$$/stat)")
    shell_pid, session = result.stdout.split()
    assert shell_pid == session
    assert int(session) != os.getsid(0)


async def test_cancelling_the_caller_kills_the_command(root: Path, is_gone: Callable[[int], bool]) -> None:
    fifo = root / "started"
    os.mkfifo(fifo)
    pid = 0
    async with anyio.create_task_group() as group:
        group.start_soon(run_bash, root, f"echo $$ > {fifo}; sleep 999")
        with anyio.fail_after(5):
            pid = int(await anyio.to_thread.run_sync(fifo.read_text))
        group.cancel_scope.cancel()
    assert is_gone(pid)


async def test_missing_bash_is_a_spawn_error(root: Path) -> None:
    with anyio.fail_after(5), pytest.raises(SpawnError) as caught:
        await run_bash(root, "true", bash_path=str(root / "no-such-bash"))
    assert caught.value.code == "spawn_error"


async def test_unexecutable_bash_is_a_spawn_error(root: Path) -> None:
    fake = root / "bash"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with anyio.fail_after(5), pytest.raises(SpawnError):
        await run_bash(root, "true", bash_path=str(fake), login_shell="off")


async def test_cwd_inside_root_is_where_the_command_runs(root: Path) -> None:
    (root / "sub").mkdir()
    with anyio.fail_after(5):
        result = await run_bash(root, "pwd -P", cwd="sub")
    assert result.stdout.strip() == str((root / "sub").resolve())
    assert result.cwd == str((root / "sub").resolve())


@pytest.mark.parametrize("cwd", ["..", "/", "missing", "file.txt"])
async def test_cwd_outside_root_or_not_a_directory_is_invalid_cwd(root: Path, cwd: str) -> None:
    (root / "file.txt").write_text("x")
    with anyio.fail_after(5), pytest.raises(InvalidCwdError) as caught:
        await run_bash(root, "true", cwd=cwd)
    assert caught.value.code == "invalid_cwd"


async def test_secrets_are_not_passed_to_children(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-leak")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-leak")
    monkeypatch.setenv("JEEVES_MCP_PRUNER_TOKEN", "bearer-leak")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-leak")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-leak")
    monkeypatch.setenv("JEEVES_HARMLESS_SETTING", "kept")
    for mode in ("cached_env", "every_call", "off"):
        with anyio.fail_after(10):
            result = await run_bash(root, "env", login_shell=mode)
        assert "leak" not in result.stdout, mode
        assert "JEEVES_HARMLESS_SETTING=kept" in result.stdout, mode


async def test_secrets_exported_by_the_login_profile_do_not_reach_children(
    root: Path, home_with_profile: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = home_with_profile(
        "export OPENAI_API_KEY=sk-profile-leak GITHUB_TOKEN=ghp-profile-leak JEEVES_FROM_PROFILE=yes\n"
    )
    monkeypatch.setenv("HOME", str(home))  # an isolated HOME: the real profile is not the subject
    for mode in ("cached_env", "every_call", "off"):
        with anyio.fail_after(10):
            result = await run_bash(root, "env", login_shell=mode)
        assert "leak" not in result.stdout, mode
        assert ("JEEVES_FROM_PROFILE=yes" in result.stdout) == (mode != "off"), mode


async def test_env_overrides_reach_the_child_and_win_over_the_login_profile(root: Path) -> None:
    with anyio.fail_after(10):
        result = await run_bash(root, 'echo "$PATH|$MY_FLAG"', env={"PATH": "/usr/bin:/bin", "MY_FLAG": "on"})
    assert result.stdout == "/usr/bin:/bin|on\n"


async def test_login_profile_exports_are_seen_in_every_mode_but_off(
    root: Path, home_with_profile: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = home_with_profile("echo profile chatter\nexport JEEVES_FROM_PROFILE=yes\n")
    monkeypatch.setenv("HOME", str(home))
    seen = {}
    for mode in ("cached_env", "every_call", "off"):
        with anyio.fail_after(10):
            result = await run_bash(root, 'echo "[$JEEVES_FROM_PROFILE]"', login_shell=mode)
        seen[mode] = result.stdout.splitlines()[-1]
    assert seen == {"cached_env": "[yes]", "every_call": "[yes]", "off": "[]"}


async def test_a_slow_login_profile_cannot_make_the_first_call_outlive_its_timeout(
    root: Path, home_with_profile: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(home_with_profile("sleep 5\nexport JEEVES_FROM_PROFILE=yes\n")))
    with anyio.fail_after(10):
        result = await run_bash(root, 'echo "ran [$JEEVES_FROM_PROFILE]"', timeout_ms=1000)
    assert result.stdout == "ran []\n"  # the command ran, without the profile it had no time for


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cmd": "  "}, "empty"),
        ({"cmd": "a\0b"}, "NUL"),
        ({"cmd": "true", "timeout_ms": 0}, "timeout_ms"),
        ({"cmd": "true", "max_output_bytes": 0}, "max_output_bytes"),
        ({"cmd": "true", "env": {"lower": "x"}}, "env key"),
        ({"cmd": "true", "env": {"OK": "a\0b"}}, "NUL"),
    ],
)
async def test_nonsense_arguments_are_value_errors(root: Path, kwargs: dict[str, Any], message: str) -> None:
    with anyio.fail_after(5), pytest.raises(ValueError, match=message):
        await run_bash(root, **kwargs)  # kwargs: ill-typed on purpose


async def test_cwd_is_resolved_off_the_event_loop(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[bool] = []

    def spy_resolve(root: Path, user_path: str) -> Path:  # a spy: the real resolution runs
        threads.append(threading.current_thread() is threading.main_thread())
        return resolve_inside(root, user_path)

    monkeypatch.setattr(process_module, "resolve_inside", spy_resolve)
    (root / "sub").mkdir()
    with anyio.fail_after(5):
        await run_bash(root, "true", cwd="sub", login_shell="off")
    assert threads == [False]


async def test_a_long_output_keeps_its_head_and_its_failing_tail_with_one_marker(root: Path) -> None:
    with anyio.fail_after(10):
        result = await run_bash(root, "seq 1 100000; echo 'FAILED: boom'", max_output_bytes=4096)
    head, _, rest = result.stdout.partition("⟦TRUNCATED: ")
    assert head.startswith("1\n2\n")
    assert head.endswith("\n")
    assert result.stdout.endswith("99999\n100000\nFAILED: boom\n")  # the tail: most of the budget
    omitted = result.omitted["stdout"]
    shown_head_lines = head.count("\n")
    assert omitted.first_line == shown_head_lines + 1
    assert f"lines {omitted.first_line}-{omitted.first_line + omitted.lines - 1}" in rest
    assert shown_head_lines + omitted.lines + rest.count("\n") - 1 == 100_001  # every line counted once
    assert len(head.encode()) <= 1024 < len(rest.encode())  # a quarter for the head


async def test_captures_hold_the_whole_output_and_close_their_spool(root: Path) -> None:
    with anyio.fail_after(10):
        result = await run_bash(root, "seq 1 400000", max_output_bytes=4096, capture_bytes=64 << 20)
    assert result.captures is not None
    stdout, stderr = result.captures
    try:
        whole = stdout.full()
        assert whole.omitted is None
        assert whole.text == "".join(f"{i}\n" for i in range(1, 400_001))  # 2.6 MB: past the spool threshold
        assert stdout.spooled_to_disk()
    finally:
        stdout.close()
        stderr.close()
    assert stdout.closed
    assert result.omitted["stdout"].bytes > 0  # what is returned is still cut to max_output_bytes


async def test_the_callers_path_wins_over_a_login_profile_that_resets_it(
    root: Path, tmp_path: Path, home_with_profile: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An activated venv and a project's node_modules/.bin, as `PATH=$VENV/bin:$PATH agent` leaves
    # them, under a profile that resets PATH as Debian's /etc/profile does.
    venv_bin, project_bin = tmp_path / "venv" / "bin", root / "node_modules" / ".bin"
    for directory, name in ((venv_bin, "python"), (project_bin, "eslint")):
        directory.mkdir(parents=True)
        (directory / name).write_text(f"#!/bin/sh\necho {name} from {directory.parent.name}\n")
        (directory / name).chmod(0o755)
    home = home_with_profile("export PATH=/usr/bin:/bin:/opt/from-profile\nexport JEEVES_FROM_PROFILE=yes\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{venv_bin}:{project_bin}:/usr/bin:/bin")
    monkeypatch.setenv("JEEVES_CALLER_SETTING", "mine")
    for mode in ("cached_env", "every_call"):
        with anyio.fail_after(10):
            result = await run_bash(
                root,
                'python; eslint; echo "$PATH|$JEEVES_FROM_PROFILE|$JEEVES_CALLER_SETTING"',
                login_shell=mode,
            )
        ran, linted, seen = result.stdout.splitlines()[-3:]
        assert ran == "python from venv", mode
        assert linted == "eslint from node_modules", mode
        path, from_profile, setting = seen.split("|")
        assert path.split(":")[:2] == [str(venv_bin), str(project_bin)], mode
        assert "/opt/from-profile" in path.split(":"), mode  # what the profile adds is kept, after
        assert (from_profile, setting) == ("yes", "mine"), mode
