"""`jeeves gain` and `jeeves show` on a ledger of known rows (the real `jeeves` executable), and
the HTML report opened in a real headless Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import httpx
import pytest

from mcp_pruner_server.ledger.store import COLUMNS, INSERT_SQL, open_for_writing
from tests.interop.interop_support import RunningServer, running_server
from tests.mcp_pruner_server.server_fixtures import PATIENT_ENGINE_MS

JEEVES = Path(sys.executable).with_name("jeeves")
CLI_TIMEOUT_S = 30.0
BROWSER_TIMEOUT_S = 45.0
NOW = time.time()
DAY = 86_400.0
PROJECT_A, PROJECT_B = "/work/shop", "/work/blog"
# ten days ago: in "all time" only
OLD = NOW - 10 * DAY
REMOVED = json.dumps([{"field": "content", "prune_id": "prn_A", "original_lines": 8, "removed": [[3, 6]]}])


def row(**values: object) -> tuple[object, ...]:
    base: dict[str, object] = dict.fromkeys(COLUMNS)
    base |= {"ts": NOW, "session": "s1", "project": PROJECT_A, "agent": "claude-code", "tool": "read"}
    base |= {"outcome": "raw", "has_question": 0, "latency_ms": 2.0, "reread": 0}
    base |= values
    return tuple(base[c] for c in COLUMNS)


ROWS = (
    # s1: a pruned read (1000 -> 200), its re-read through bash (1000 -> 250), a recover of the first
    row(tool="read", outcome="pruned", target=f"{PROJECT_A}/pricing.py", target_kind="file", raw_tokens=1000,
        sent_tokens=200, prune_id="prn_A", prune_ids="prn_A", question="where is the discount?",
        has_question=1, removed=REMOVED),
    row(tool="bash", outcome="pruned", target=f"{PROJECT_A}/pricing.py", target_kind="file", raw_tokens=1000,
        sent_tokens=250, prune_id="prn_B", prune_ids="prn_B", reread=1),
    row(tool="recover_text", raw_tokens=40, sent_tokens=40, prune_id="prn_A", recovers=1),
    # s2, another project and agent, ten days ago: a pytest run (3000 -> 1000)
    row(ts=OLD, session="s2", project=PROJECT_B, agent="codex-mcp-client", tool="bash", outcome="pruned",
        target="pytest -q", target_kind="command", raw_tokens=3000, sent_tokens=1000, prune_id="prn_C",
        prune_ids="prn_C"),
)  # fmt: skip


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite3"
    conn = open_for_writing(path)
    conn.executemany(INSERT_SQL, ROWS)
    conn.close()
    return path


def jeeves(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(JEEVES), *args], capture_output=True, text=True, timeout=CLI_TIMEOUT_S, env=env, check=False
    )


def test_gain_json_has_totals_per_period_breakdowns_rates_and_cost(ledger: Path) -> None:
    done = jeeves("gain", "--json", "--ledger", str(ledger), "--price", "2")

    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    everything, today = report["periods"]["all"], report["periods"]["today"]
    assert (everything["calls"], everything["raw_tokens"], everything["sent_tokens"]) == (4, 5040, 1490)
    assert everything["saved_tokens"] == 3550
    assert everything["saved_usd"] == pytest.approx(3550 * 2 / 1e6, abs=1e-4)
    assert (today["calls"], today["saved_tokens"]) == (3, 1550)
    assert today["recover_rate"] == 0.5  # one of the two pruned calls of today recovered
    assert today["reread_rate"] == 0.5  # one of the two calls on a file was a re-read
    assert [g["key"] for g in report["by_project"]] == [PROJECT_B, PROJECT_A]
    assert {g["key"]: g["calls"] for g in report["by_agent"]} == {"claude-code": 3, "codex-mcp-client": 1}
    assert report["top_files"][0] == {
        "key": f"{PROJECT_A}/pricing.py",
        "calls": 2,
        "raw_tokens": 2000,
        "sent_tokens": 450,
        "saved_tokens": 1550,
        "saved_usd": 0.0031,
    }
    assert report["top_commands"][0]["key"] == "pytest -q"


def test_gain_prints_the_periods_the_breakdowns_and_a_daily_chart(ledger: Path) -> None:
    done = jeeves("gain", "--ledger", str(ledger))

    assert done.returncode == 0, done.stderr
    text = done.stdout
    for heading in ("today", "7 days", "all time", "per project", "per agent", "per tool", "top files"):
        assert heading in text, text
    today_line = next(line for line in text.splitlines() if line.strip().startswith("today"))
    assert "1,550" in today_line
    assert "50%" in today_line
    assert "█" * 40 in text  # today's bar is the biggest of the chart: full width


def test_gain_session_lists_the_calls_with_recover_and_reread_marks(ledger: Path) -> None:
    done = jeeves("gain", "--session", "s1", "--ledger", str(ledger))

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.lstrip().startswith("#")]) == 3
    assert "re-read" in lines[2]
    assert "recovers #1" in lines[3]
    assert lines[-1].startswith("ledger: session s1: 3 calls, 2 pruned")
    assert "1 recover_text" in lines[-1]
    assert "1 re-reads" in lines[-1]


def test_show_prints_the_removed_ranges_and_marks_the_lines_the_model_did_not_read(
    ledger: Path, tmp_path: Path
) -> None:
    source = tmp_path / "pricing.py"
    source.write_text("".join(f"line {n}\n" for n in range(1, 9)), encoding="utf-8")
    with contextlib.closing(open_for_writing(ledger)) as conn:
        conn.execute("UPDATE calls SET target = ? WHERE prune_id = 'prn_A'", (str(source),))
    env = {k: v for k, v in os.environ.items() if k != "JEEVES_MCP_URL"}
    done = jeeves("show", "prn_A", "--ledger", str(ledger), env=env)

    assert done.returncode == 0, done.stderr
    assert "4 of 8 lines kept, 4 removed" in done.stdout
    marked = [line for line in done.stdout.splitlines() if line.startswith(("- ", "  ")) and "line " in line]
    assert [line[0] for line in marked] == [" ", " ", "-", "-", "-", "-", " ", " "]


def test_show_of_an_unknown_prune_id_says_so(ledger: Path) -> None:
    done = jeeves("show", "prn_never", "--ledger", str(ledger))

    assert done.returncode == 1
    assert "prn_never is not in the ledger" in done.stderr


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is missing: `make test` installs it (Debian package `chromium`)")
    return found


def browser_console_errors(page: Path, profile: Path) -> tuple[str, str]:
    """(the DOM Chromium built, its console errors) for `page`, loaded headless."""
    argv = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        page.as_uri(),
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=BROWSER_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    errors = [
        line
        for line in done.stderr.splitlines()
        if "CONSOLE" in line and ("Uncaught" in line or "ERROR" in line or "Failed" in line)
    ]
    return done.stdout, "\n".join(errors)


def test_the_html_report_opens_in_a_real_browser_without_errors(ledger: Path, tmp_path: Path) -> None:
    page = tmp_path / "gain.html"
    done = jeeves("gain", "--ledger", str(ledger), "--html", str(page))
    assert done.returncode == 0, done.stderr

    dom, errors = browser_console_errors(page, tmp_path / "profile")
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><title>x</title><script>undefinedFunction()</script>", encoding="utf-8")
    _, control = browser_console_errors(broken, tmp_path / "profile-control")

    assert control, "the console check sees no error in a page that throws: it checks nothing"
    assert errors == ""
    assert dom.count("<svg") >= 3  # the daily chart, per tool, per project
    assert "jeeves gain" in dom
    assert "http://" not in page.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")


POLL_S = 0.05  # how often the test looks for the server's ledger row (written by its writer thread)
ROW_TIMEOUT_S = 30.0
CODE = (
    "".join(f"def helper_{n}(x):\n    return x + {n}\n\n" for n in range(30))
    + "def tax(a):\n    return a * 0.2\n"
)


def _pruned_read(server: RunningServer, path: str, ledger: Path) -> str:
    """The prune_id of a `read` of `path` the server pruned, once its ledger row is written."""
    arguments = {"path": path, "context_focus_question": "How is the tax computed?"}
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "read", "arguments": arguments},
    }
    answer = httpx.post(
        server.base_url + "/rpc", json=body, headers={"Authorization": f"Bearer {server.token}"}, timeout=30
    ).json()
    prune_id: str = answer["result"]["structuredContent"]["pruning"]["prune_id"]
    deadline = time.monotonic() + ROW_TIMEOUT_S
    while not ledger.exists() or not _has_row(ledger, prune_id):
        assert time.monotonic() < deadline, "the server wrote no ledger row"
        time.sleep(POLL_S)
    return prune_id


@pytest.fixture
def served_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A server root holding `billing.py` (CODE), for a server of a patient engine."""
    monkeypatch.setenv("JEEVES_PRUNER_TIMEOUT_MS", PATIENT_ENGINE_MS)
    root = tmp_path / "root"
    root.mkdir()
    (root / "billing.py").write_text(CODE, encoding="utf-8")
    return root


def test_show_takes_the_text_from_the_live_servers_recovery_store(tmp_path: Path, served_root: Path) -> None:
    root = served_root
    ledger = Path(os.environ["XDG_STATE_HOME"]) / "jeeves" / "ledger.sqlite3"
    token = "show-test-token"
    with running_server(root, tmp_path, token) as server:
        prune_id = _pruned_read(server, "billing.py", ledger)
        (root / "billing.py").write_text("changed since\n", encoding="utf-8")  # only the store has it now
        done = jeeves("show", prune_id, "--url", server.url, env=os.environ | {"JEEVES_MCP_TOKEN": token})

    assert done.returncode == 0, done.stderr
    assert "text from the server's recovery store" in done.stdout
    shown = [line for line in done.stdout.splitlines() if line.startswith(("- ", "  ")) and "  " in line[2:]]
    assert [line.split("  ", 2)[-1] for line in shown[-2:]] == ["def tax(a):", "    return a * 0.2"]
    assert all(line.startswith("  ") for line in shown[-2:])  # the lines the question needed: kept
    assert any(line.startswith("- ") for line in shown)


def test_show_counts_the_lines_of_a_file_ending_in_a_newline_as_its_reader_does(
    tmp_path: Path, served_root: Path
) -> None:
    lines = CODE.count("\n")  # 92, the last one ended by the file's final newline
    ledger = Path(os.environ["XDG_STATE_HOME"]) / "jeeves" / "ledger.sqlite3"
    with running_server(served_root, tmp_path, "show-test-token") as server:
        prune_id = _pruned_read(server, "billing.py", ledger)

    done = jeeves("show", prune_id, "--ledger", str(ledger))

    assert done.returncode == 0, done.stderr
    counted = re.search(r"content: (\d+) of (\d+) lines kept, (\d+) removed", done.stdout)
    assert counted is not None, done.stdout
    kept, total, removed = map(int, counted.groups())
    assert total == lines  # it said 93: the empty "line" after the final newline
    assert kept + removed == lines
    shown = [line for line in done.stdout.splitlines() if re.match(r"[- ] +\d+  ", line)]
    assert len(shown) == lines  # the file as it reads now: every line numbered, no more


def _has_row(ledger: Path, prune_id: str) -> bool:
    with contextlib.closing(open_for_writing(ledger)) as conn:
        return conn.execute("SELECT 1 FROM calls WHERE prune_id = ?", (prune_id,)).fetchone() is not None
