"""The bench's own task sets, built at run time: nothing to download, nothing next to the code.

- **code**: questions about this package's own source, which every install has. In each module
  of `mcp_pruner_server`, `tools_exec` and `runner` long enough to be worth pruning, one
  function with a docstring is picked (a seeded choice); the question is the docstring's first
  line, as a developer would phrase what they look for, and the gold lines are the function's
  non-blank lines without the docstring.
- **logs**: `pytest -v` sessions made up from a seeded generator: hundreds of passing tests,
  warnings and captured output, several failures; the question names one failing test, the gold
  lines are its `>` line, `E ` lines, location line and `FAILED` summary line (the `E ` and
  `FAILED` lines are also `critical`).

The same seed gives the same tasks for the same source. `python -m runner.bench.builtin_tasks
DIR` writes them as `dev_code.jsonl` / `dev_logs.jsonl`, the shared harness's format, so
`jeeves bench --tasks-dir DIR` can score them with a harness of that format too.
"""

from __future__ import annotations

import ast
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import mcp_pruner_server
import runner
import tools_exec

Task = dict[str, object]

SEED = 15
# A module shorter than this is read whole by any agent: nothing to measure.
MIN_FILE_LINES = 150
# The function must be a small part of its file, and big enough to be more than a signature.
MIN_FUNCTION_LINES = 5
MAX_FUNCTION_SHARE = 0.25
# A docstring line shorter than this is a label, not a question.
MIN_GOAL_WORDS = 4
LOG_TASKS = 16
PASSING_TESTS = (150, 400)
FAILING_TESTS = (2, 5)


def _source_files() -> list[Path]:
    files: list[Path] = []
    for package in (mcp_pruner_server, tools_exec, runner):
        base = Path(str(package.__file__)).parent
        files += [p for p in sorted(base.rglob("*.py")) if "sample_project" not in p.parts]
    return files


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _code_task(path: Path, rng: random.Random) -> Task | None:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if len(lines) < MIN_FILE_LINES:
        return None
    candidates = []
    for node in _functions(ast.parse(text)):
        doc = ast.get_docstring(node)
        end = node.end_lineno or node.lineno
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        size = end - start + 1
        if not doc or len(doc.split("\n")[0].split()) < MIN_GOAL_WORDS:
            continue
        if not MIN_FUNCTION_LINES <= size <= MAX_FUNCTION_SHARE * len(lines):
            continue
        body0 = node.body[0]
        doc_lines = set(range(body0.lineno, (body0.end_lineno or body0.lineno) + 1))
        gold = [n for n in range(start, end + 1) if n not in doc_lines and lines[n - 1].strip()]
        candidates.append((node.name, doc.split("\n")[0].strip(), gold))
    if not candidates:
        return None
    name, goal, gold = rng.choice(candidates)
    package_path = path.relative_to(Path(str(mcp_pruner_server.__file__)).parent.parent)
    return {
        "id": f"code:{package_path}:{name}",
        "kind": "code",
        "source_type": "code",
        "goal_hint": goal,
        "text": text,
        "gold": gold,
        "critical": [],
    }


def code_tasks(seed: int = SEED) -> list[Task]:
    """One question per long-enough module of the installed packages."""
    rng = random.Random(seed)
    tasks = [_code_task(path, rng) for path in _source_files()]
    return [task for task in tasks if task is not None]


_MODULES = ("parser", "config", "cache", "invoice", "scheduler", "auth", "storage", "report", "client")
_VERBS = ("parses", "rejects", "rounds", "retries", "merges", "expires", "encodes", "sorts", "limits")
_OBJECTS = ("empty_input", "unicode_names", "negative_amounts", "large_batches", "stale_entries", "timeouts")
_FAILURES = (
    ("assert result == expected", "AssertionError: assert 41 == 42", "where 41 = compute()"),
    ("assert key in cache", "AssertionError: assert 'user:7' in {}", "+  where {} = cache.entries"),
    ("raise ValueError(f'bad port {port!r}')", "ValueError: bad port 'abc'", "port = 'abc'"),
    ("return items[index]", "IndexError: list index out of range", "index = 3"),
    ("total = amount / count", "ZeroDivisionError: division by zero", "count = 0"),
)


def _log_task(index: int, rng: random.Random) -> Task:
    tests = sorted(
        {
            f"tests/test_{rng.choice(_MODULES)}.py::test_{rng.choice(_VERBS)}_{rng.choice(_OBJECTS)}_{n}"
            for n in range(rng.randint(*PASSING_TESTS))
        }
    )
    failing = rng.sample(tests, rng.randint(*FAILING_TESTS))
    target = rng.choice(failing)
    out = [
        "=" * 29 + " test session starts " + "=" * 30,
        "platform linux -- Python 3.11.7, pytest-8.3.4, pluggy-1.5.0 -- /usr/bin/python3",
        "rootdir: /srv/app",
        "configfile: pyproject.toml",
        f"collecting ... collected {len(tests)} items",
        "",
    ]
    for n, test in enumerate(tests):
        outcome = "FAILED" if test in failing else "PASSED"
        out.append(f"{test} {outcome} {' ' * 8}[{100 * (n + 1) // len(tests):3d}%]")
    out += ["", "=" * 33 + " FAILURES " + "=" * 34]
    gold: list[int] = []
    critical: list[int] = []
    errors: dict[str, str] = {}
    for test in failing:
        path, name = test.split("::")
        source, error, detail = rng.choice(_FAILURES)
        errors[test] = error
        number = rng.randint(10, 400)
        section = [
            "_" * 20 + f" {name} " + "_" * 20,
            "",
            f"    def {name}():",
            "        setup = make_fixture()",
            f"        compute = setup.{rng.choice(_VERBS)}",
            f">       {source}",
            f"E       {error}",
            f"E        {detail}",
            "",
            f"{path}:{number}: {error.split(':')[0]}",
            "----------------------------- Captured stdout call -----------------------------",
            *(f"debug: step {s} ok" for s in range(rng.randint(3, 30))),
        ]
        first = len(out) + 1
        out += section
        if test == target:
            gold += [first + 5, first + 6, first + 7, first + 9]
            critical += [first + 6, first + 7]
    out += ["", "=" * 28 + " warnings summary " + "=" * 28]
    for n in range(rng.randint(5, 40)):
        out += [f"tests/test_{rng.choice(_MODULES)}.py::test_w{n}", "  DeprecationWarning: old API", ""]
    out += ["=" * 27 + " short test summary info " + "=" * 27]
    for test in failing:
        out.append(f"FAILED {test} - {errors[test]}")
        if test == target:
            gold.append(len(out))
            critical.append(len(out))
    out.append("=" * 20 + f" {len(failing)} failed, {len(tests) - len(failing)} passed in 3.21s " + "=" * 20)
    name = target.split("::")[1]
    return {
        "id": f"logs:{index}:{name}",
        "kind": "logs",
        "source_type": "logs",
        "goal_hint": f"Why does {name} fail?",
        "text": "\n".join(out) + "\n",
        "gold": sorted(gold),
        "critical": sorted(critical),
    }


def log_tasks(seed: int = SEED, count: int = LOG_TASKS) -> list[Task]:
    """`count` made-up pytest sessions, each with a question about one of its failures."""
    rng = random.Random(seed)
    return [_log_task(index, rng) for index in range(count)]


def write_tasks(directory: Path) -> list[Path]:
    """Write `dev_code.jsonl` and `dev_logs.jsonl` to `directory`; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, tasks in (("dev_code.jsonl", code_tasks()), ("dev_logs.jsonl", log_tasks())):
        path = directory / name
        path.write_text("".join(json.dumps(task) + "\n" for task in tasks), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_tasks(Path(sys.argv[1] if len(sys.argv) > 1 else "bench-tasks")):
        sys.stdout.write(f"{written_path}\n")
