"""Python tools' failing runs for `log_fresh_tools.py`: pytest, an application's `logging`
output with tracebacks among its INFO lines, mypy, ruff and pyright.

Each function writes a small seeded project where most units pass or only warn and one fails,
runs the real tool, and labels the output as `log_sets.py` does.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from log_fresh_common import NODE_ENV, as_task, block_from, mark, pick, write
from log_sets import WORDS, Task, run_tool


def pytest_run(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    files = {f"lib_{n}.py": f"def total(items):\n    return sum(i['{n}'] for i in items)\n" for n in names}
    for name in names:
        cases = ""
        for k in range(rng.randint(3, 6)):
            want = k + 2 if name == bad and k == 1 else k + 1
            cases += f"def test_total_case_{k}():\n    items = [{{'{name}': {k + 1}}}]\n"
            cases += f"    assert total(items) == {want}\n\n\n"
        files[f"tests/test_{name}.py"] = f"from lib_{name} import total\n\n\n{cases}"
    write(root, files)
    lines = run_tool(
        ["pytest", "-v", "-p", "no:cacheprovider", "tests"], root, {"PYTHONPATH": str(root)}
    ).split("\n")
    start = next(i for i, x in enumerate(lines) if re.match(r"^_+ test_total_case_1 _+$", x))
    stop = re.compile(r"^(=+|_+) ")
    body = block_from(lines, start, stop)
    gold, crit = mark(
        lines,
        lambda i, x: (
            (i in body and bool(re.match(r"^(E |>|_+ |\S+\.py:\d+: )", x)))
            or x.startswith(f"FAILED tests/test_{bad}.py")
        ),
        lambda x: x.startswith("E ") or x.startswith("FAILED"),
    )
    return as_task(lines, gold, crit, rng.choice([f"why does test_{bad}.py fail?", "why does pytest fail?"]))


def python_logging(rng: random.Random, root: Path) -> Task:
    steps, field = rng.randint(40, 80), rng.choice(WORDS)
    fail = rng.randint(steps // 3, steps - 5)
    chained = rng.random() < 0.5
    handler = (
        "    except KeyError as exc:\n"
        f"        raise ValueError('record {{}} has no {field}'.format(i)) from exc\n"
        if chained
        else ""
    )
    write(
        root,
        {
            "worker.py": "import logging\n\nlogging.basicConfig(level=logging.INFO,\n"
            "    format='%(asctime)s %(levelname)s %(name)s: %(message)s', datefmt='%H:%M:%S')\n"
            "log = logging.getLogger('worker')\n\n\n"
            "def price(rec):\n"
            f"    return rec['{field}'] * 2\n\n\n"
            "def process(i, rec):\n"
            + ("    try:\n        return price(rec)\n" + handler if chained else "    return price(rec)\n")
            + f"\n\nfor i in range({steps}):\n"
            f"    rec = {{}} if i == {fail} else {{'{field}': i}}\n"
            "    try:\n        log.info('processed record %d: %s', i, process(i, rec))\n"
            "    except Exception:\n        log.exception('failed to process record %d', i)\n"
            "    if i % 11 == 5:\n        log.warning('queue depth %d above soft limit', 100 + i)\n"
        },
    )
    lines = run_tool([sys.executable, "worker.py"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if "ERROR worker" in x)
    block = block_from(lines, start, re.compile(r"^\d\d:\d\d:\d\d (INFO|WARNING)"))
    gold, crit = mark(
        lines, lambda i, _: i in block, lambda x: bool(re.match(r"^(KeyError|ValueError)|.*ERROR", x))
    )
    return as_task(
        lines, gold, crit, rng.choice(["why does the worker fail on a record?", f"why is {field} missing?"])
    )


def mypy(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    files = {}
    for name in names:
        ret = f"    return str(len(items))  # {name}\n" if name == bad else "    return len(items)\n"
        files[f"proj/{name}.py"] = (
            f"def {name}_total(items: list[int]) -> int:\n    unused = [x for x in items]\n{ret}\n\n"
            f"def {name}_label(n):\n    return {name}_total(n) + 'x'\n"
        )
    files["proj/__init__.py"] = ""
    write(root, files)
    pretty = ["--pretty"] if rng.random() < 0.5 else []  # a code frame and caret under each error
    cmd = ["mypy", "--no-incremental", "--check-untyped-defs", "--show-error-context", *pretty, "proj"]
    lines = run_tool(cmd, root).split("\n")
    # every file has an error in its `_label` (the same in each): the question is about `bad`'s own
    start = next(i for i, x in enumerate(lines) if x.startswith(f"proj/{bad}.py:"))
    block = block_from(lines, start, re.compile(r"_label"))
    gold, crit = mark(
        lines, lambda i, x: i in block or x.startswith("Found "), lambda x: "Incompatible return value" in x
    )
    return as_task(
        lines,
        gold,
        crit,
        rng.choice([f"why does mypy fail on {bad}.py?", f"what is wrong with {bad}_total?"]),
    )


def ruff(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    files = {}
    for name in names:
        head = "import os\n" if rng.random() < 0.4 else ""
        body = f"    return {name}_count + undefined_{name}\n" if name == bad else "    return 0\n"
        files[f"{name}.py"] = f"{head}\n\ndef {name}_total():\n{body}"
    write(root, files)
    concise = rng.random() < 0.5
    fmt = "concise" if concise else "full"
    lines = run_tool(["ruff", "check", "--no-cache", "--output-format", fmt, "."], root).split("\n")
    # concise: `cart.py:4:12: F821 …`; full: `F821 Undefined name …`, ` --> cart.py:4:12` and a code frame
    starts = [i for i, x in enumerate(lines) if re.match(r"^(\S+\.py:\d+:\d+: )?F821 ", x)]
    block: set[int] = set()
    for s in starts:
        block |= block_from(lines, s, re.compile(r"^(\S+\.py:\d+:\d+: )?[A-Z]+\d+ |^Found "))
    gold, crit = mark(lines, lambda i, x: i in block or x.startswith("Found "), lambda x: "F821" in x)
    return as_task(
        lines,
        gold,
        crit,
        rng.choice([f"which names are undefined in {bad}.py?", "why does ruff check fail?"]),
    )


def pyright(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    files = {}
    for name in names:
        ret = f"    return str(len(items))  # {name}\n" if name == bad else "    return len(items)\n"
        files[f"proj/{name}.py"] = f"def {name}_total(items: list[int]) -> int:\n{ret}\n\nimport os\n"
    write(root, files | {"pyrightconfig.json": '{"reportUnusedImport": "warning"}'})
    lines = run_tool(["pyright", "proj"], root, NODE_ENV).split("\n")
    head = next(i for i, x in enumerate(lines) if x.endswith(f"/proj/{bad}.py"))
    err = next(i for i in range(head, len(lines)) if " - error: " in lines[i])
    body = block_from(lines, err, re.compile(r"^\S|^  /"))
    gold, crit = mark(
        lines,
        lambda i, x: i == head or i in body or bool(re.match(r"^\d+ errors?, ", x)),
        lambda x: " - error: " in x,
    )
    return as_task(
        lines,
        gold,
        crit,
        rng.choice([f"why does pyright fail on {bad}.py?", "what type error does pyright report?"]),
    )


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "pytest": pytest_run,
    "py_logging": python_logging,
    "mypy": mypy,
    "ruff": ruff,
    "pyright": pyright,
}
