"""A stand-in provider for the runner's tests: does what its flags say, in order.

`--record FILE`   write {url, token, env_token_of_server} as JSON to FILE
`--check-auth`    require /stats to answer 200 with the token and 401 without (exit 9 if not)
`--crash-server`  POST /crash to the server (it exits at once)
`--freeze-server` POST /freeze (later /healthz calls hang)
`--wait-log EVENT` wait until the runner's log file ($RUN_LOG) holds EVENT
`--touch FILE`    create FILE (a "started" flag for the test)
`--call-read PATH` call the server's `read` tool on PATH with a focus question via `/rpc` (exit 9 on error)
`--read-times N`  make that call N times (default 1)
`--stop-ledger-writer FILE` SIGSTOP the server's ledger writer (as on cores kept busy: it runs
                  only on idle ones) and write its pid to FILE
`--start-bash-sleep FILE` start a `bash` tool call running `sleep`, write the sleeping
                  process's pid to FILE once it exists (the call itself is left running)
`--kill-server`   SIGKILL the server (its pid from the runner's ready event): a crash
`--wait-forever`  block until killed (SIGTERM exits 143 through the default handler)
`--exit N`        exit with N (default 0)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping

# Bound on --wait-log so a broken runner fails the test instead of hanging it.
WAIT_LOG_TIMEOUT_S = 20.0
POLL_S = 0.01


def request(path: str, *, method: str = "GET", token: str | None) -> int:
    base = os.environ["JEEVES_MCP_URL"].removesuffix("/mcp")
    req = urllib.request.Request(base + path, method=method, data=b"" if method == "POST" else None)
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, ConnectionError):
        return 0  # the crashed server closed the connection without an answer


def rpc(method: str, params: Mapping[str, object]) -> dict[str, object]:
    url = os.environ["JEEVES_MCP_URL"].removesuffix("/mcp") + "/rpc"
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    req = urllib.request.Request(url, data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    req.add_header("Authorization", f"Bearer {os.environ['JEEVES_MCP_TOKEN']}")
    with urllib.request.urlopen(req, timeout=30) as resp:
        answer: dict[str, object] = json.loads(resp.read())
    return answer


def ready_pid() -> int:
    with open(os.environ["RUN_LOG"], encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            if event.get("event") == "mcp_pruner.ready":
                return int(event["data"]["pid"])
    sys.exit("provider: no ready event in the runner's log")


def start_bash_sleep(pid_file: str) -> None:
    import threading

    import psutil

    call = {"name": "bash", "arguments": {"cmd": "sleep 600", "timeout_ms": 300000}}
    threading.Thread(target=rpc, args=("tools/call", call), daemon=True).start()
    server = psutil.Process(ready_pid())
    deadline = time.monotonic() + WAIT_LOG_TIMEOUT_S
    while time.monotonic() < deadline:
        for child in server.children(recursive=True):
            try:
                if child.name() == "sleep":
                    with open(pid_file, "w", encoding="utf-8") as f:
                        f.write(str(child.pid))
                    return
            except psutil.Error:
                continue
        time.sleep(POLL_S)
    sys.exit("provider: the bash tool's sleep never appeared")


def wait_log(event: str) -> None:
    path = os.environ["RUN_LOG"]
    deadline = time.monotonic() + WAIT_LOG_TIMEOUT_S
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8") as f:
            if any(json.loads(line).get("event") == event for line in f if line.strip()):
                return
        time.sleep(POLL_S)
    sys.exit(f"provider: {event} never appeared in {path}")


def stop_ledger_writer(pid_file: str) -> None:
    import psutil

    from mcp_pruner_server.ledger.channel import WRITER_MODULE

    server = psutil.Process(ready_pid())
    (writer,) = [child for child in server.children() if child.cmdline()[-2:] == ["-m", WRITER_MODULE]]
    writer.suspend()
    with open(pid_file, "w", encoding="utf-8") as f:
        f.write(str(writer.pid))


def leave_exited_child(pid_file: str) -> None:
    """Start a child, wait for it to exit without reaping it, and write its pid: as Codex leaves
    the `git` it ran, a zombie that re-parents to `jeeves run` when this process exits."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
    with open(pid_file, "w", encoding="utf-8") as f:
        f.write(str(child.pid))
    child.returncode = 0  # not reaped: Popen's finalizer must leave it for the subreaper


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--record")
    p.add_argument("--check-auth", action="store_true")
    p.add_argument("--crash-server", action="store_true")
    p.add_argument("--freeze-server", action="store_true")
    p.add_argument("--wait-log")
    p.add_argument("--touch")
    p.add_argument("--call-read")
    p.add_argument("--read-times", type=int, default=1)
    p.add_argument("--stop-ledger-writer")
    p.add_argument("--kill-server", action="store_true")
    p.add_argument("--start-bash-sleep")
    p.add_argument("--wait-forever", action="store_true")
    p.add_argument("--leave-exited-child")
    p.add_argument("--exit", type=int, default=0)
    args = p.parse_args()
    token = os.environ.get("JEEVES_MCP_TOKEN")
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "url": os.environ.get("JEEVES_MCP_URL"),
                    "token": token,
                    "server_token": os.environ.get("JEEVES_MCP_PRUNER_TOKEN"),
                },
                f,
            )
    if args.check_auth and (request("/stats", token=token) != 200 or request("/stats", token=None) != 401):
        sys.exit(9)
    if args.call_read:
        question = "where is the answer computed?"
        call = {"name": "read", "arguments": {"path": args.call_read, "context_focus_question": question}}
        for _ in range(args.read_times):
            result = rpc("tools/call", call).get("result")
            if not isinstance(result, dict) or result.get("isError"):
                sys.exit(9)
    if args.stop_ledger_writer:
        stop_ledger_writer(args.stop_ledger_writer)
    if args.start_bash_sleep:
        start_bash_sleep(args.start_bash_sleep)
    if args.kill_server:
        os.kill(ready_pid(), signal.SIGKILL)
    if args.crash_server:
        request("/crash", method="POST", token=token)
    if args.freeze_server:
        request("/freeze", method="POST", token=token)
    if args.wait_log:
        wait_log(args.wait_log)
    if args.touch:
        open(args.touch, "w").close()
    if args.leave_exited_child:
        leave_exited_child(args.leave_exited_child)
    if args.wait_forever:
        while True:
            time.sleep(3600)
    sys.exit(args.exit)


if __name__ == "__main__":
    main()
