"""Build log task sets from real tool runs that fail on purpose (gcc+make, cargo, go build, go
test, javac, node, npm, pip; Maven, g++ and bash in `log_more_tools.py`), seeded, split into
dev and held-out by variant.

    python benchmarks/log_sets.py --out /tmp/langsets    # logs_dev.jsonl, logs_held.jsonl

Each variant writes a small project (seeded names and sizes) where many units pass or only
warn and one fails, runs the real tool, and labels the output: the gold lines are the failing
unit's diagnostic block (the error, its code frame, `note:`/`help:` lines, its stack), the
critical lines the error's own message. Even variants are dev, odd ones held out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

WORDS = [
    *("stock", "order", "price", "cart", "user", "token", "queue", "cache", "route", "parser"),
    *("buffer", "ledger", "invoice", "report", "session", "filter", "widget", "account", "budget"),
    *("schedule", "payment"),
]
# Tool runs are short; a hung one is a broken environment, not a task.
RUN_TIMEOUT_S = 300
VARIANTS = 6
# A Python with setuptools and wheel, so only the package meant to fail fails (Debian's).
PIP_PYTHON = "/usr/bin/python3"

Task = tuple[str, list[int], list[int], str]  # text, gold (1-based), critical, question


def run_tool(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    full = dict(os.environ, LC_ALL="C", NO_COLOR="1", CARGO_TERM_COLOR="never", **(env or {}))
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # interleaved, as a terminal shows them
        text=True,
        timeout=RUN_TIMEOUT_S,
        env=full,
        check=False,
    )
    return proc.stdout.replace(str(cwd), "/work/proj")


def label_block(
    lines: list[str], start: re.Pattern[str], stop: re.Pattern[str], crit: re.Pattern[str]
) -> Task:
    """Gold: from the first `start` line up to (not including) the next `stop` line."""
    gold: list[int] = []
    inside = False
    for i, line in enumerate(lines):
        if start.search(line):
            inside = True
        elif inside and stop.search(line):
            inside = False
        if inside and line.strip():
            gold.append(i + 1)
    critical = [g for g in gold if crit.search(lines[g - 1])]
    return "\n".join(lines), gold, critical, ""


def gcc(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(12, 18))
    bad = names[rng.randint(3, len(names) - 3)]
    for name in names:
        body = f"int {name}_total(int n)\n{{\n  int unused_{name} = n;\n  int t = 0;\n"
        body += "  for (int i = 0; i < n; i++)\n    t += i;\n"
        if name == bad:
            body += rng.choice(["  return totl;\n", f"  return {name}_scale(t, 2, 3);\n"])
            body = f"int {name}_scale(int a, int b);\n\n" + body
        else:
            body += "  return t;\n"
        (root / f"{name}.c").write_text(f"#include <stdio.h>\n\n{body}}}\n")
    objs = " ".join(f"{n}.o" for n in names)
    (root / "Makefile").write_text(f"all: {objs}\n%.o: %.c\n\tgcc -Wall -c $< -o $@\n")
    lines = run_tool(["make", "-k", "-j1"], root).split("\n")
    text, gold, crit, _ = label_block(
        lines,
        re.compile(rf"^{bad}\.c:\d+:\d+: error:"),
        re.compile(r"^gcc |^make|^\S+:\d+:\d+: warning:"),
        re.compile(r"error:"),
    )
    gold += [i + 1 for i, line in enumerate(lines) if line.startswith("make: ***")]
    return (
        text,
        sorted(gold),
        crit,
        rng.choice([f"why does {bad}.c not compile?", "why does the build fail?"]),
    )


def cargo(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(8, 12))
    bad = names[rng.randint(2, len(names) - 2)]
    (root / "src").mkdir()
    (root / "Cargo.toml").write_text('[package]\nname = "proj"\nversion = "0.1.0"\nedition = "2021"\n')
    mods = []
    for name in names:
        body = f"pub fn {name}_total(n: u32) -> u32 {{\n    let unused_{name} = n;\n    (0..n).sum()\n}}\n"
        if name == bad:
            body += rng.choice(
                [
                    f"pub fn {name}label_block(n: u32) -> String {{\n    n + 1\n}}\n",
                    f"pub fn {name}_count(v: &Vec<u32>) -> usize {{\n"
                    "    v.iter().filter(|x| x > 2).count()\n}\n",
                ]
            )
        (root / "src" / f"{name}.rs").write_text(body)
        mods.append(f"pub mod {name};")
    (root / "src" / "lib.rs").write_text("\n".join(mods) + "\n")
    lines = run_tool(["cargo", "build", "--offline"], root, {"CARGO_TARGET_DIR": str(root / "target")}).split(
        "\n"
    )
    text, gold, crit, _ = label_block(
        lines,
        re.compile(r"^error\["),
        re.compile(r"^(warning|error)(\[|:)(?!.*\[E\d)"),
        re.compile(r"^error\["),
    )
    gold += [i + 1 for i, line in enumerate(lines) if line.startswith("error: could not compile")]
    return (
        text,
        sorted(set(gold)),
        crit,
        rng.choice([f"why does {bad}.rs fail to build?", "why does cargo build fail?"]),
    )


def go_build(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(8, 12))
    bad = names[rng.randint(2, len(names) - 2)]
    (root / "go.mod").write_text("module example.com/proj\n\ngo 1.19\n")
    for name in names:
        (root / name).mkdir()
        body = f"package {name}\n\nfunc Total(n int) int {{\n\tt := 0\n"
        body += "\tfor i := 0; i < n; i++ {\n\t\tt += i\n\t}\n"
        if name == bad:
            body += rng.choice(['\treturn t + "1"\n}\n', "\tvar s string = t\n\treturn s\n}\n"])
        else:
            body += "\treturn t\n}\n"
        (root / name / f"{name}.go").write_text(body)
    lines = run_tool(["go", "vet", "./..."], root, {"GOFLAGS": "-mod=mod", "GOPATH": str(root / ".gopath")})
    lines2 = run_tool(["go", "build", "-v", "./..."], root, {"GOPATH": str(root / ".gopath")})
    all_lines = (lines + lines2).split("\n")
    text, gold, crit, _ = label_block(
        all_lines,
        re.compile(rf"^# example.com/proj/{bad}$"),
        re.compile(r"^(# |example\.com|go: )"),
        re.compile(rf"^{bad}/{bad}\.go:\d+:\d+:|^vet: "),
    )
    return text, gold, crit, rng.choice([f"why does package {bad} not build?", "why does go build fail?"])


def go_test(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(6, 9))
    bad = names[rng.randint(1, len(names) - 2)]
    (root / "go.mod").write_text("module example.com/proj\n\ngo 1.19\n")
    for name in names:
        (root / name).mkdir()
        (root / name / f"{name}.go").write_text(
            f"package {name}\n\nfunc Total(n int) int {{\n\treturn n * (n - 1) / 2\n}}\n"
        )
        tests = ""
        for k in range(rng.randint(3, 6)):
            want = "46" if (name == bad and k == 1) else "45"
            tests += (
                f'func Test{name.title()}Case{k}(t *testing.T) {{\n\tt.Logf("case {k}")\n'
                f"\tif got := Total(10); got != {want} {{\n"
                f'\t\tt.Errorf("Total(10) = %d, want {want}", got)\n\t}}\n}}\n\n'
            )
        if name == bad and rng.random() < 0.5:
            tests += 'func TestPanics(t *testing.T) {\n\tvar m map[string]int\n\tm["a"] = 1\n}\n'
        (root / name / f"{name}_test.go").write_text(f'package {name}\n\nimport "testing"\n\n{tests}')
    lines = run_tool(["go", "test", "-v", "./..."], root, {"GOPATH": str(root / ".gopath")}).split("\n")
    gold, crit = [], []
    for i, line in enumerate(lines):
        if re.match(
            r"^\s*--- FAIL|^panic:|^FAIL\s|^\s+\S+_test\.go:\d+: Total|^goroutine |^\S+\(.*\)$|^\t/", line
        ):
            gold.append(i + 1)
        if re.match(r"^\s*--- FAIL|^panic:|^\s+\S+_test\.go:\d+: Total", line):
            crit.append(i + 1)
    return (
        "\n".join(lines),
        gold,
        crit,
        rng.choice([f"which test of {bad} fails and why?", "why does go test fail?"]),
    )


def javac(rng: random.Random, root: Path) -> Task:
    names = [w.title() for w in rng.sample(WORDS, rng.randint(10, 15))]
    bad = names[rng.randint(2, len(names) - 2)]
    for name in names:
        body = (
            f"import java.util.*;\n\npublic class {name} {{\n    public static int total(int n) {{\n"
            f"        List items = new ArrayList();\n        items.add(n);\n"
        )
        body += (
            rng.choice(["        return count;\n", '        return items.size() + "";\n'])
            if name == bad
            else ("        return items.size();\n")
        )
        (root / f"{name}.java").write_text(body + "    }\n}\n")
    lines = run_tool(["javac", "-Xlint:all", "-d", "out", *(f"{n}.java" for n in names)], root).split("\n")
    text, gold, crit, _ = label_block(
        lines,
        re.compile(rf"^{bad}\.java:\d+: error:"),
        re.compile(r"^\S+\.java:\d+: (warning|error)|^\d+ (error|warning)"),
        re.compile(r"error:"),
    )
    return text, gold, crit, rng.choice([f"why does {bad}.java not compile?", "why does javac fail?"])


def node(rng: random.Random, root: Path) -> Task:
    steps = rng.randint(30, 60)
    fail = rng.randint(steps // 2, steps - 3)
    field = rng.choice(WORDS)
    (root / "app.js").write_text(
        "'use strict';\n"
        f"function load(i) {{\n  return i === {fail} ? undefined : {{ {field}: {{ id: i }} }};\n}}\n"
        f"function render(rec) {{\n  return rec.{field}.id;\n}}\n"
        f"function main() {{\n  for (let i = 0; i < {steps}; i++) {{\n"
        f"    console.log(`[info] processed record ${{i}} id=${{render(load(i))}}`);\n"
        "    if (i % 7 === 3) console.warn(`[warn] slow response for record ${i}, retrying`);\n"
        "  }\n}\nmain();\n"
    )
    lines = run_tool(["node", "app.js"], root).split("\n")
    text, gold, crit, _ = label_block(
        lines, re.compile(r"^/work/proj/app\.js:\d+$"), re.compile(r"^Node\.js v"), re.compile(r"^TypeError")
    )
    gold += [i + 1 for i, line in enumerate(lines) if line.startswith("Node.js v")]
    return text, gold, crit, rng.choice(["why does app.js crash?", f"why is {field} undefined?"])


def npm(rng: random.Random, root: Path) -> Task:
    steps = rng.randint(20, 40)
    (root / "package.json").write_text(
        json.dumps({"name": "proj", "version": "1.0.0", "scripts": {"build": "node build.js"}})
    )
    missing = rng.choice(WORDS)
    (root / "build.js").write_text(
        f"for (let i = 0; i < {steps}; i++) console.log(`bundling chunk ${{i}}: ok (${{i * 13 % 97}} kB)`);\n"
        "const fs = require('fs');\nfunction readConfig() {\n"
        f"  return fs.readFileSync('{missing}.config.json', 'utf8');\n}}\n"
        "readConfig();\n"
    )
    lines = run_tool(["npm", "run", "build"], root, {"npm_config_update_notifier": "false"}).split("\n")
    gold = [
        i + 1
        for i, line in enumerate(lines)
        if i >= next((k for k, x in enumerate(lines) if x.startswith("node:")), len(lines)) and line.strip()
    ]
    crit = [i + 1 for i, line in enumerate(lines) if line.startswith("Error: ENOENT")]
    return (
        "\n".join(lines),
        gold,
        crit,
        rng.choice(["why does npm run build fail?", f"why is {missing}.config.json not found?"]),
    )


def pip(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(3, 5))
    bad = names[-1]
    for name in names:
        pkg = root / name
        pkg.mkdir()
        raise_line = (
            f"    raise RuntimeError('lib{name} headers not found: install lib{name}-dev')\n"
            if name == bad
            else ""
        )
        (pkg / "setup.py").write_text(
            "from setuptools import setup\nimport sys\n\n"
            f"def check():\n    print('checking for lib{name}')\n{raise_line}\n"
            f"check()\nsetup(name='{name}', version='1.0', py_modules=[])\n"
        )
    out = ""
    for name in names:
        verbose = [] if name == bad else ["-v"]
        wheel = [
            PIP_PYTHON,
            "-m",
            "pip",
            "wheel",
            *verbose,
            "--no-index",
            "--no-build-isolation",
            "--no-deps",
        ]
        out += run_tool([*wheel, "-w", str(root / "dist"), f"./{name}"], root)
    lines = out.split("\n")
    start = next((i for i, x in enumerate(lines) if "subprocess-exited-with-error" in x), len(lines))
    gold = [i + 1 for i in range(start, len(lines)) if lines[i].strip()]
    crit = [g for g in gold if re.search(r"did not run successfully|RuntimeError", lines[g - 1])]
    return (
        "\n".join(lines),
        gold,
        crit,
        rng.choice([f"why does installing {bad} fail?", "why does pip install fail?"]),
    )


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "gcc": gcc,
    "cargo": cargo,
    "go_build": go_build,
    "go_test": go_test,
    "javac": javac,
    "node": node,
    "npm": npm,
    "pip": pip,
}


def build(seed: int, only: set[str] | None) -> list[dict[str, Any]]:
    tasks = []
    from log_more_tools import SCENARIOS as MORE  # imports this module: not at the top

    for tool, make in (SCENARIOS | MORE).items():
        if only and tool not in only:
            continue
        for v in range(VARIANTS):
            rng = random.Random(f"{seed}:{tool}:{v}")
            with tempfile.TemporaryDirectory() as tmp:
                text, gold, crit, question = make(rng, Path(tmp))
            if not gold:
                print(f"{tool} #{v}: no gold lines, skipped", file=sys.stderr)
                continue
            tasks.append(log_task(f"logs:{tool}:{v}", tool, v, (text, gold, crit, question)))
    return tasks


def log_task(task_id: str, tool: str, variant: int, task: Task) -> dict[str, Any]:
    """One line of a log set's JSONL file."""
    text, gold, crit, question = task
    return {
        "id": task_id,
        "kind": "logs",
        "source_type": "logs",
        "tool": tool,
        "variant": variant,
        "goal_hint": question,
        "text": text,
        "gold": gold,
        "critical": crit,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    tasks = build(args.seed, set(args.only or ()))
    args.out.mkdir(parents=True, exist_ok=True)
    for split, parity in (("dev", 0), ("held", 1)):
        with open(args.out / f"logs_{split}.jsonl", "w", encoding="utf-8") as f:
            for t in tasks:
                if t["variant"] % 2 == parity:
                    f.write(json.dumps(t) + "\n")
    print(f"{len(tasks)} log tasks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
