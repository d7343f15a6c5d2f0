"""JavaScript and TypeScript tools' failing runs for `log_fresh_tools.py`: tsc (through
`npm run build`), eslint, jest, mocha and vitest.

Each function writes a small seeded project where most units pass or only warn and one fails,
runs the real tool, and labels the output as `log_sets.py` does.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from log_fresh_common import NODE_ENV, as_task, block_from, mark, pick, write
from log_sets import Task, run_tool

TS_ERRORS = [
    "  return `${n}`;\n",  # TS2322, one line
    "  return n.lenght;\n",  # TS2339, one line
    # TS2322 with its elaboration on indented lines below it
    "  const raw = { id: n, meta: { tags: [n] } };\n"
    "  const rec: { id: number; meta: { tags: string[] } } = raw;\n  return rec.id;\n",
]


def tsc(rng: random.Random, root: Path) -> Task:
    """`npm run build` running `tsc` (npm's own lines around the compiler's)."""
    names, bad = pick(rng, 8, 14)
    files = {
        "tsconfig.json": json.dumps(
            {"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src"]}
        ),
        "package.json": json.dumps({"name": "proj", "version": "1.0.0", "scripts": {"build": "tsc -p ."}}),
    }
    others = set(rng.sample([n for n in names if n != bad], 2))  # errors the question is not about
    for name in names:
        ret = rng.choice(TS_ERRORS) if name == bad else "  return n * 2;\n"
        ret = TS_ERRORS[1] if name in others else ret
        files[f"src/{name}.ts"] = f"export function {name}Total(n: number): number {{\n{ret}}}\n"
    write(root, files)
    lines = run_tool(["npm", "run", "build"], root, NODE_ENV).split("\n")
    start = next(i for i, x in enumerate(lines) if f"{bad}.ts" in x)
    block = block_from(lines, start, re.compile(r"^\S"))
    gold, crit = mark(lines, lambda i, x: i in block, lambda x: "error TS" in x)
    return as_task(
        lines, gold, crit, rng.choice([f"why does {bad}.ts not type-check?", f"what is wrong in {bad}Total?"])
    )


def eslint(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 14)
    files = {
        "eslint.config.js": "module.exports = [{ files: ['src/**/*.js'],"
        " languageOptions: { sourceType: 'commonjs',"
        " globals: { module: 'readonly', require: 'readonly' } },"
        " rules: { 'no-unused-vars': 'warn', 'no-undef': 'error', 'eqeqeq': 'warn' } }];\n"
    }
    for name in names:
        unused = f"  const unused{name.title()} = n;\n" if rng.random() < 0.6 else ""
        ret = f"  return {name}Count + n;\n" if name == bad else "  return n == 0 ? 0 : n * 2;\n"
        files[f"src/{name}.js"] = (
            f"function {name}Total(n) {{\n{unused}{ret}}}\nmodule.exports = {{ {name}Total }};\n"
        )
    write(root, files)
    lines = run_tool(["eslint", "src"], root, NODE_ENV).split("\n")
    head = next(i for i, x in enumerate(lines) if x.endswith(f"/src/{bad}.js"))
    gold, crit = mark(
        lines,
        lambda i, x: (
            i == head
            or (
                i > head
                and " error " in x
                and "no-undef" in x
                and all(lines[k].strip() for k in range(head, i))
            )
            or x.startswith("✖")
        ),
        lambda x: "no-undef" in x,
    )
    return as_task(
        lines,
        gold,
        crit,
        rng.choice([f"why does eslint fail on {bad}.js?", "which eslint error breaks the lint?"]),
    )


def _js_tests(
    rng: random.Random, root: Path, names: list[str], bad: str, assertion: Callable[[int, int], str]
) -> str:
    """Test files `test/<name>.test.js` (one case of `bad` fails); the failing case's title."""
    failing = ""
    for name in names:
        cases = ""
        for k in range(rng.randint(2, 5)):
            want = k + 1
            if name == bad and not failing and k >= 1:
                want, failing = k + 2, f"totals case {k}"
            cases += f"  it('totals case {k}', () => {{\n    {assertion(k + 1, want)};\n  }});\n"
        write(
            root,
            {
                f"test/{name}.test.js": (
                    f"const assert = require('assert');\n\ndescribe('{name}', () => {{\n{cases}}});\n"
                )
            },
        )
    return failing


def jest(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    failing = _js_tests(rng, root, names, bad, lambda got, want: f"expect({got}).toBe({want})")
    write(root, {"package.json": json.dumps({"name": "proj", "version": "1.0.0"})})
    lines = run_tool(["jest", "--ci", "--rootDir", "."], root, NODE_ENV).split("\n")
    start = next(i for i, x in enumerate(lines) if x.strip().startswith(f"● {bad} › {failing}"))
    block = block_from(lines, start, re.compile(r"^(PASS|FAIL) |^\s+● |^Test Suites:"))
    gold, crit = mark(
        lines,
        lambda i, x: i in block or x.startswith(f"FAIL test/{bad}.test.js") or x.startswith("Tests: "),
        lambda x: bool(re.match(r"^\s+(Expected|Received):", x)),
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does the {bad} test fail?", "which jest test fails?"])
    )


def mocha(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    _js_tests(rng, root, names, bad, lambda got, want: f"assert.strictEqual({got}, {want})")
    lines = run_tool(["mocha", "--no-color", "test/*.test.js"], root, NODE_ENV).split("\n")
    start = next(i for i, x in enumerate(lines) if re.match(rf"^\s+1\) {bad}$", x))
    gold, crit = mark(
        lines,
        lambda i, x: i >= start or bool(re.match(r"^\s+\d+ failing", x)),
        lambda x: "AssertionError" in x,
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does the {bad} test fail?", "which mocha test fails?"])
    )


def vitest(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    failing = _js_tests(rng, root, names, bad, lambda got, want: f"expect({got}).toBe({want})")
    for name in names:  # vitest's globals are imported
        p = root / "test" / f"{name}.test.js"
        p.write_text("import { describe, it, expect } from 'vitest';\n" + p.read_text().split("\n", 1)[1])
    write(root, {"package.json": json.dumps({"name": "proj", "version": "1.0.0", "type": "module"})})
    lines = run_tool(["vitest", "run", "--reporter", "default"], root, NODE_ENV).split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith(" FAIL ") and failing in x and bad in x)
    block = block_from(
        lines, start, re.compile(r"^⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯\[|^ Test Files ")
    )
    block = {i for i in block if not lines[i].startswith("⎯")}
    block |= {i for i, x in enumerate(lines) if x.strip().startswith(f"× {failing} ")}
    gold, crit = mark(
        lines,
        lambda i, x: i in block or x.startswith("      Tests "),
        lambda x: "AssertionError" in x,
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does the {bad} test fail?", "which vitest test fails?"])
    )


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "tsc": tsc,
    "eslint": eslint,
    "jest": jest,
    "mocha": mocha,
    "vitest": vitest,
}
