"""`jeeves bench --quick` end to end on tiny task sets (a few seconds), built-in and shared-harness."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from runner.bench.builtin_tasks import write_tasks
from runner.bench.errors import ServerBenchFailed
from runner.bench.quality import HARNESS_FILE
from runner.bench.run import BenchSettings, run_bench
from runner.bench.server import measure_server
from runner.cli import app

REPO_ROOT = Path(__file__).resolve().parents[3]
# The team's harness, when the repository sits in the team layout (never in a plain install).
# (the main checkout beside `shared/`, or a worktree one level further down).
SHARED_EVAL = next(
    (p / "shared" / "eval" for p in REPO_ROOT.parents[:2] if (p / "shared" / "eval").is_dir()),
    REPO_ROOT.parent / "shared" / "eval",
)

# Lines kept from each task file: with --quick's every-5th/every-2nd subsets, 1 code and 2 logs tasks.
TINY_TASKS = 3


@pytest.fixture
def tiny_tasks(tmp_path: Path) -> Path:
    """The first built-in tasks of each kind (written by the builder), scored by the shared harness."""
    if not (SHARED_EVAL / HARNESS_FILE).is_file():
        pytest.skip(f"the shared harness is not next to the repository ({SHARED_EVAL})")
    tiny = tmp_path / "tasks"
    (tiny / HARNESS_FILE).parent.mkdir()
    (tiny / HARNESS_FILE).symlink_to(SHARED_EVAL / HARNESS_FILE)
    for path in write_tasks(tmp_path / "built"):
        with path.open(encoding="utf-8") as source:
            head = [next(source) for _ in range(TINY_TASKS)]
        (tiny / path.name).write_text("".join(head), encoding="utf-8")
    return tiny


def test_the_built_in_tasks_and_harness_need_nothing_next_to_the_code(tmp_path: Path) -> None:
    # A few tasks of each kind and few calls: the whole path of a plain install's `jeeves bench`.
    settings = BenchSettings(
        None, tmp_path, True, code_every=15, logs_every=8, sweep=(0.8,), server_starts=1, calls=3
    )

    data = run_bench(settings, lambda _message: None)

    quality = data["quality"]
    assert isinstance(quality, dict)
    assert quality["code"]["tasks"] >= 2
    assert quality["logs"]["tasks"] == 2
    assert quality["logs"]["methods"]["pruner"]["critical"] == 1.0
    assert data["violations"] == 0
    assert str(data["harness"]).endswith("builtin_harness.py")
    assert (tmp_path / "report.md").is_file()


def test_bench_quick_writes_the_report_the_json_and_both_plots(tiny_tasks: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"

    done = CliRunner().invoke(app, ["bench", "--quick", "--tasks-dir", str(tiny_tasks), "--out", str(out)])

    assert done.exit_code == 0, done.output
    assert "| code (1) | **pruner** (ours) |" in done.output
    assert "startup to healthy" in done.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["quick"] is True
    assert set(data["quality"]) == {"code", "logs"}
    assert set(data["quality"]["logs"]["methods"]) == {
        "pruner",
        "bm25block",
        "keyword",
        "uniform",
        "headtail",
    }
    assert [p["ratio"] for p in data["sweep"]["code"]] == [0.5, 0.8, 0.95]
    assert data["violations"] == 0
    assert data["tokenizer"] == "tiktoken cl100k_base (offline)"
    assert {"/rpc prune_text", "/mcp prune_text", "grep tool (/rpc)", "raw rg (subprocess)"} <= set(
        data["server"]["round_trips_ms"]
    )
    assert data["server"]["startup_ms"]["n"] == 3
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for section in ("## Pruning quality", "## Recall vs kept lines", "## Latency", "## Plots"):
        assert section in markdown
    for plot in ("recall_vs_kept.png", "latency_hist.png"):
        assert (out / plot).read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), plot
        assert f"![{plot}]({plot})" in markdown


def test_bench_without_the_harness_says_where_it_looked(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["bench", "--quick", "--tasks-dir", str(tmp_path), "--out", str(tmp_path)])

    assert done.exit_code == 1
    assert f"no harness at {tmp_path / HARNESS_FILE}" in done.output
    assert not (tmp_path / "report.md").exists()
    assert os.listdir(tmp_path) == []


def test_a_harness_that_fails_to_import_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / HARNESS_FILE).write_text("import module_that_is_not_installed\n", encoding="utf-8")

    done = CliRunner().invoke(app, ["bench", "--quick", "--tasks-dir", str(tmp_path), "--out", str(tmp_path)])

    assert done.exit_code == 1
    assert f"{tmp_path / HARNESS_FILE} cannot be imported: ModuleNotFoundError" in done.output
    assert "Traceback" not in done.output


_MINIMAL_HARNESS = """\
BASELINES = {}
def _nonblank(lines):
    return [i for i, line in enumerate(lines) if line.strip()]
def kept_from_result(result, n):
    return set(), []
"""


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("{not json", "dev_code.jsonl:2: not JSON"),
        ("[1, 2]", "dev_code.jsonl:2: a task is a JSON object"),
        ('{"id": "x", "text": "a"}', "dev_code.jsonl:2: the task has no goal_hint, source_type, gold"),
        (None, "dev_code.jsonl: no task in the file"),
    ],
)
def test_a_task_file_line_that_is_not_a_task_names_the_file_and_line(
    tmp_path: Path, line: str | None, says: str
) -> None:
    (tmp_path / HARNESS_FILE).write_text(_MINIMAL_HARNESS, encoding="utf-8")
    task = {"id": "t", "text": "a\nb", "goal_hint": "a", "source_type": "code", "gold": [1], "critical": []}
    code_tasks = "\n" if line is None else json.dumps(task) + "\n" + line + "\n"  # None: an empty file
    (tmp_path / "dev_code.jsonl").write_text(code_tasks, encoding="utf-8")
    (tmp_path / "dev_logs.jsonl").write_text(json.dumps(task) + "\n", encoding="utf-8")

    done = CliRunner().invoke(
        app, ["bench", "--quick", "--tasks-dir", str(tmp_path), "--out", str(tmp_path / "out")]
    )

    assert done.exit_code == 1
    assert says in done.output
    assert "Traceback" not in done.output


def test_an_out_directory_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / HARNESS_FILE).write_text(_MINIMAL_HARNESS, encoding="utf-8")
    blocker = tmp_path / "a_file"
    blocker.write_text("", encoding="utf-8")

    done = CliRunner().invoke(
        app, ["bench", "--quick", "--tasks-dir", str(tmp_path), "--out", str(blocker / "out")]
    )

    assert done.exit_code == 1
    assert f"cannot create the report directory {blocker / 'out'}" in done.output
    assert "Traceback" not in done.output


def test_a_server_that_drops_a_measured_call_is_a_bench_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A mock: a real server cannot be made to drop the connection of a chosen call on demand.
    async def dropped(client: httpx.AsyncClient, *args: object, **kwargs: object) -> httpx.Response:
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.")

    monkeypatch.setattr(httpx.AsyncClient, "post", dropped)

    with pytest.raises(ServerBenchFailed, match="a measured call failed: RemoteProtocolError"):
        anyio.run(measure_server, "a\nb", "a", 1, 1)
