"""A fresh log set from tools `log_sets.py` does not run: Ruby (a script, RSpec, Minitest, Rake),
PHP (a script, PHPUnit), shellcheck and Perl here; pytest, Python logging, mypy, ruff and pyright
in `log_fresh_python.py`; tsc, eslint, jest, mocha and vitest in `log_fresh_node.py`; CMake,
`cargo test`, Gradle and valgrind in `log_fresh_builds.py`. Each run fails on purpose, seeded.

    python benchmarks/log_fresh_tools.py --out /tmp/langsets    # logs_fresh_dev.jsonl, logs_fresh_held.jsonl

The tools, installed for building the set only (Debian 12, PyPI, npm):

    apt-get install --no-install-recommends ruby ruby-rspec rake ruby-minitest php-cli phpunit \
        shellcheck clang gradle valgrind cmake ninja-build
    python3 -m venv /tmp/jp-logs-tools/py && /tmp/jp-logs-tools/py/bin/pip install pytest mypy ruff
    cd /tmp/jp-logs-tools/npm && npm install typescript eslint jest mocha vitest pyright

(`--tools` names the directories holding the PyPI and npm tools' executables.) A task is a real
log, a question an agent would ask of it, the gold lines (the failing unit's error, its
location, its code frame, stack frames and continuation lines) and the critical lines (the
error's own message), labelled as `log_sets.py` does. A task goes to the held-out split when its
id's SHA-1 is odd (`lang_sets.held_out`), as every other set builder splits.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lang_sets import held_out, write_split
from log_fresh_builds import SCENARIOS as BUILDS
from log_fresh_common import as_task, block_from, mark, pick, seeded_failure, write
from log_fresh_node import SCENARIOS as NODE
from log_fresh_python import SCENARIOS as PYTHON
from log_sets import Task, log_task, run_tool

VARIANTS = 6
DEFAULT_TOOLS = ("/tmp/jp-logs-tools/py/bin", "/tmp/jp-logs-tools/npm/node_modules/.bin")


def ruby_script(rng: random.Random, root: Path) -> Task:
    steps, field, fail = seeded_failure(rng)
    write(
        root,
        {
            "app.rb": f"def load(i)\n  i == {fail} ? nil : {{ {field}: {{ id: i }} }}\nend\n\n"
            f"def render(rec)\n  rec[:{field}][:id]\nend\n\n"
            f'{steps}.times do |i|\n  puts "[info] processed record #{{i}} id=#{{render(load(i))}}"\n'
            '  warn "[warn] slow response for record #{i}, retrying" if i % 7 == 3\nend\n'
        },
    )
    lines = run_tool(["ruby", "app.rb"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if "(NoMethodError)" in x)
    block = block_from(lines, start, re.compile(r"^\["))  # its code frame, caret and `from` frames
    gold, crit = mark(lines, lambda i, _: i in block, lambda x: "NoMethodError" in x)
    return as_task(lines, gold, crit, rng.choice(["why does app.rb crash?", f"why is {field} nil?"]))


def rspec(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    files = {}
    for name in names:
        cases = ""
        for k in range(rng.randint(2, 5)):
            want = k + 2 if name == bad and k == 1 else k + 1
            cases += f"  it 'totals case {k}' do\n    expect([{k + 1}].sum).to eq({want})\n  end\n\n"
        files[f"spec/{name}_spec.rb"] = f"RSpec.describe '{name.title()}' do\n{cases}end\n"
    write(root, files)
    lines = run_tool(["rspec", "--format", "documentation"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if re.match(r"^\s+1\) ", x))
    block = block_from(lines, start, re.compile(r"^(Finished|\s+\d+\) )"))
    gold, crit = mark(
        lines,
        lambda i, x: i in block or x.startswith(f"rspec ./spec/{bad}_spec.rb") or " examples, " in x,
        lambda x: bool(re.search(r"Failure/Error|expected:|got:", x)),
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does the {bad} spec fail?", "which rspec example fails?"])
    )


def minitest(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 4, 7)
    raises = rng.random() < 0.5
    files = {}
    for name in names:
        cases = ""
        for k in range(rng.randint(3, 6)):
            expr = f"[{k + 1}].sum"
            if name == bad and k == 1:
                expr = "nil.fetch(:total)" if raises else f"[{k + 1}].sum + 1"
            cases += f"  def test_total_case_{k}\n    assert_equal {k + 1}, {expr}\n  end\n\n"
        cls = name.title()
        files[f"test/{name}_test.rb"] = (
            f"require 'minitest/autorun'\n\nclass {cls}Test < Minitest::Test\n{cases}end\n"
        )
    write(root, files)
    runner = "Dir['test/*_test.rb'].sort.each { |f| require_relative f }"
    lines = run_tool(["ruby", "-e", runner, "--", "--verbose", "--seed", "7"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if re.match(r"^\s+1\) (Failure|Error):", x))
    block = block_from(lines, start, re.compile(r"^\d+ runs"))
    gold, crit = mark(
        lines,
        lambda i, x: i in block or bool(re.match(r"^\d+ runs, .*[1-9]\d* (failures|errors)", x)),
        lambda x: bool(re.match(r"^(Expected|\s+Actual|NoMethodError)", x)),
    )
    question = rng.choice([f"why does {bad.title()}Test fail?", "which minitest test fails and why?"])
    return as_task(lines, gold, crit, question)


def rake(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 6, 10)
    tasks = ""
    for name in names:
        body = f'  puts "[rake] compiling {name}: {rng.randint(2, 30)} files"\n'
        if name == bad:
            body += f'  raise "asset manifest for {name} is missing"\n'
        tasks += f"task :{name} do\n{body}end\n\n"
    tasks += f"task default: [{', '.join(':' + n for n in names)}]\n"
    write(root, {"Rakefile": tasks})
    lines = run_tool(["rake"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("rake aborted!"))
    block = block_from(lines, start, re.compile(r"^\[rake\]"))  # stdout comes after stderr
    gold, crit = mark(lines, lambda i, _: i in block, lambda x: "manifest" in x)
    return as_task(lines, gold, crit, rng.choice(["why does rake abort?", f"why does the {bad} task fail?"]))


def php_script(rng: random.Random, root: Path) -> Task:
    steps, field, fail = seeded_failure(rng)
    write(
        root,
        {
            "app.php": "<?php\n"
            f"function load($i) {{ return $i == {fail} ? null : ['{field}' => $i]; }}\n"
            f"function render(array $rec): string {{ return (string) $rec['{field}']; }}\n"
            f"for ($i = 0; $i < {steps}; $i++) {{\n"
            "    if ($i % 9 == 4) { echo $undefined_total; }\n"
            '    echo "[info] processed record $i id=" . render(load($i)) . "\\n";\n}\n'
        },
    )
    lines = run_tool(["php", "-d", "display_errors=stderr", "app.php"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if "Fatal error" in x)
    block = block_from(lines, start, re.compile(r"^\[info\]|PHP Warning|^Warning"))
    gold, crit = mark(lines, lambda i, _: i in block, lambda x: "Fatal error" in x)
    return as_task(lines, gold, crit, rng.choice(["why does app.php crash?", "why does render fail?"]))


def phpunit(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    files = {}
    for name in names:
        cls, cases = f"{name.title()}Test", ""
        for k in range(rng.randint(2, 5)):
            want = k + 2 if name == bad and k == 1 else k + 1
            cases += f"    public function testTotalCase{k}(): void\n    {{\n"
            cases += f"        $this->assertSame({want}, array_sum([{k + 1}]));\n    }}\n\n"
        files[f"tests/{cls}.php"] = (
            f"<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class {cls} extends TestCase\n{{\n{cases}}}\n"
        )
    write(root, files)
    testdox = rng.random() < 0.5
    lines = run_tool(["phpunit", *(["--testdox"] if testdox else []), "tests"], root).split("\n")
    if testdox:  # each failing test's `✘` line and its `│` box, in the run and in the summary
        block = {i for i, x in enumerate(lines) if x.startswith(" ✘")}
        block |= {i for i, x in enumerate(lines) if x.startswith("   │") and i - 1 in block}
        block |= {
            i
            for i, x in enumerate(lines)
            if x.startswith("   │") and any(j in block for j in range(i - 4, i))
        }
    else:
        start = next(i for i, x in enumerate(lines) if re.match(r"^1\) ", x))
        block = block_from(lines, start, re.compile(r"^FAILURES!"))
    gold, crit = mark(
        lines,
        lambda i, x: i in block or x.startswith("Tests: "),
        lambda x: "Failed asserting" in x,
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does {bad.title()}Test fail?", "which phpunit test fails?"])
    )


def shellcheck(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 6, 10)
    script = "#!/bin/bash\nout=/tmp/out\n\n"
    for name in names:
        step = '  for f in $@; do echo "$f"; done\n' if name == bad else f"  cp conf/{name}.conf $out/\n"
        script += f'deploy_{name}() {{\n  echo "deploying {name}"\n{step}}}\n\n'
    write(root, {"deploy.sh": script + " ".join(f"deploy_{n}" for n in names) + "\n"})
    lines = run_tool(["shellcheck", "deploy.sh"], root).split("\n")
    start = next(i for i, x in enumerate(lines) if "(error)" in x) - 2
    block = block_from(lines, start, re.compile(r"^In deploy\.sh line|^For more information"))
    gold, crit = mark(
        lines, lambda i, _: i in block and "Did you mean" not in lines[i], lambda x: "(error)" in x
    )
    gold = [
        g
        for g in gold
        if not (lines[g - 1].startswith("  ") and g - 2 >= 0 and lines[g - 2].startswith("Did you"))
    ]
    return as_task(
        lines,
        gold,
        crit,
        rng.choice(["which shellcheck error must be fixed?", f"what is wrong in deploy_{bad}?"]),
    )


def perl_script(rng: random.Random, root: Path) -> Task:
    steps, field, fail = seeded_failure(rng)
    write(
        root,
        {
            "report.pl": "use strict;\nuse warnings;\n\n"
            f"sub load {{ my ($i) = @_; return $i == {fail} ? undef : {{ {field} => $i }}; }}\n"
            f"sub render {{ my ($rec) = @_; return $rec->{{{field}}} + 0; }}\n"
            'sub emit { my ($i, $rec) = @_; die "no record for line $i" unless defined $rec;'
            ' print "[info] line $i: " . render($rec) . "\\n"; }\n'
            f'for my $i (0 .. {steps}) {{\n  my $note; print "[note] $note\\n" if $i % 13 == 6;\n'
            "  emit($i, load($i));\n}\n"
        },
    )
    lines = run_tool(["perl", "report.pl"], root).split("\n")
    gold, crit = mark(lines, lambda i, x: x.startswith("no record for line"), lambda x: True)
    return as_task(lines, gold, crit, rng.choice(["why does report.pl die?", "why does the report stop?"]))


def build(seed: int, scenarios: dict[str, Callable[[random.Random, Path], Task]]) -> list[dict[str, Any]]:
    tasks = []
    for tool, make in scenarios.items():
        for v in range(VARIANTS):
            rng = random.Random(f"{seed}:{tool}:{v}")
            with tempfile.TemporaryDirectory(prefix="jp-logs-") as tmp:
                text, gold, crit, question = make(rng, Path(tmp))
            if not gold or not crit:
                print(f"{tool} #{v}: no gold or critical lines, skipped", file=sys.stderr)
                continue
            tasks.append(log_task(f"logs_fresh:{tool}:{v}", tool, v, (text, gold, crit, question)))
    return tasks


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "ruby": ruby_script,
    "rspec": rspec,
    "minitest": minitest,
    "rake": rake,
    "php": php_script,
    "phpunit": phpunit,
    "shellcheck": shellcheck,
    "perl": perl_script,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--tools", nargs="*", default=list(DEFAULT_TOOLS))
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    os.environ["PATH"] = os.pathsep.join([*args.tools, os.environ["PATH"]])
    chosen = {
        k: v for k, v in (SCENARIOS | PYTHON | NODE | BUILDS).items() if not args.only or k in args.only
    }
    tasks = build(args.seed, chosen)
    args.out.mkdir(parents=True, exist_ok=True)
    for split, pick_held in (("dev", False), ("held", True)):
        write_split(args.out, "logs_fresh", split, [t for t in tasks if held_out(t["id"]) == pick_held])
    return 0


if __name__ == "__main__":
    sys.exit(main())
