"""More failing tool runs for `log_sets.py`: Maven (compile and JUnit 5 tests, offline from the
local repository), g++ on C++ templates, and bash scripts under `set -eu`.

Each function writes a small seeded project where most units pass or only warn and one fails,
runs the real tool, and labels the output as `log_sets.py` does: the gold lines are the failing
unit's diagnostic block, the critical lines its own message.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from log_sets import WORDS, Task, run_tool

# Plugin and JUnit versions present in the local Maven repository: the runs are offline (`-o`).
MAVEN_POM = """\
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId><artifactId>proj</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId>
      <version>3.3.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
      <version>3.13.0</version>
      <configuration><showWarnings>true</showWarnings><compilerArgs><arg>-Xlint:all</arg></compilerArgs>
      </configuration></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>
      <version>3.2.5</version></plugin>
  </plugins></build>
</project>
"""


def _maven_project(root: Path, names: list[str], bad: str, broken_body: str) -> Path:
    src = root / "src" / "main" / "java" / "com" / "acme"
    src.mkdir(parents=True)
    (root / "pom.xml").write_text(MAVEN_POM)
    for name in names:
        ret = broken_body if name == bad else "        return items.size() * n;\n"
        (src / f"{name}.java").write_text(
            f"package com.acme;\n\nimport java.util.*;\n\npublic class {name} {{\n"
            "    public static int total(int n) {\n        List items = new ArrayList();\n"
            f"        items.add(n);\n{ret}    }}\n}}\n"
        )
    return src


def maven_compile(rng: random.Random, root: Path) -> Task:
    names = [w.title() for w in rng.sample(WORDS, rng.randint(10, 14))]
    bad = names[rng.randint(2, len(names) - 2)]
    _maven_project(
        root, names, bad, rng.choice(["        return count;\n", '        return items.size() + "";\n'])
    )
    lines = run_tool(["mvn", "-o", "-B", "compile"], root).split("\n")
    gold, crit = [], []
    follow = False  # javac's `symbol:` / `location:` lines continue the error above them
    for i, line in enumerate(lines):
        own = f"/{bad}.java:[" in line and not line.startswith("[WARNING]")  # its raw-type warnings are noise
        cont = follow and re.match(r"^(?:\[ERROR\])?\s+(?:symbol|location|required|found|reason):", line)
        if own or cont or line.startswith(("[ERROR] COMPILATION ERROR", "[ERROR] Failed to execute goal")):
            gold.append(i + 1)
        if own:
            crit.append(i + 1)
        follow = bool(own or cont)
    question = rng.choice([f"why does {bad}.java not compile?", "why does mvn compile fail?"])
    return "\n".join(lines), gold, crit, question


def maven_test(rng: random.Random, root: Path) -> Task:
    names = [w.title() for w in rng.sample(WORDS, rng.randint(5, 8))]
    bad = names[rng.randint(1, len(names) - 1)]
    _maven_project(root, names, "", "")
    tests = root / "src" / "test" / "java" / "com" / "acme"
    tests.mkdir(parents=True)
    failing = ""
    for name in names:
        body = ""
        for k in range(rng.randint(2, 5)):
            want = k + 1
            if name == bad and not failing:
                want, failing = k + 2, f"totalOfCase{k}"
            body += (
                f"    @Test public void totalOfCase{k}() {{\n"
                f"        assertEquals({want}, {name}.total({k + 1}));\n    }}\n"
            )
        (tests / f"{name}Test.java").write_text(
            "package com.acme;\n\nimport org.junit.jupiter.api.Test;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
            f"public class {name}Test {{\n{body}}}\n"
        )
    lines = run_tool(["mvn", "-o", "-B", "test"], root).split("\n")
    gold, crit = [], []
    in_trace = False
    for i, line in enumerate(lines):
        own = f"{bad}Test" in line and ("FAILURE" in line or f".{failing}" in line)
        trace = in_trace and (line.startswith("\tat ") or line.startswith("org.opentest4j"))
        if (
            own
            or trace
            or re.match(r"^\[ERROR\] (?:Failures:|Tests run:.*Failures: [1-9]|Failed to execute)", line)
        ):
            gold.append(i + 1)
        if (own and "expected" in line) or line.startswith("org.opentest4j"):
            crit.append(i + 1)
        in_trace = own or trace
    question = rng.choice([f"why does {bad}Test fail?", "which test fails in mvn test and why?"])
    return "\n".join(lines), gold, crit, question


GXX_ERRORS = [
    "  return std::max(items.size(), 2);\n",  # deduction fails: candidates and their notes
    "  return items.front().cuont;\n",  # no member named …; did you mean …
    "  items.front().reset();\n  return 0;\n",  # a const object's non-const method
]


def gxx(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(8, 12))
    bad = names[rng.randint(2, len(names) - 2)]
    for name in names:
        body = (
            GXX_ERRORS[rng.randrange(len(GXX_ERRORS))] if name == bad else "  return items.front().count;\n"
        )
        (root / f"{name}.cpp").write_text(
            "#include <algorithm>\n#include <string>\n#include <vector>\n\n"
            f"struct {name.title()} {{\n  std::string name;\n  int count;\n"
            "  void reset() { count = 0; }\n};\n\n"
            f"int {name}_total(const std::vector<{name.title()}>& items) {{\n  int unused_{name} = 0;\n"
            f"{body}}}\n"
        )
    objs = " ".join(f"{n}.o" for n in names)
    (root / "Makefile").write_text(f"all: {objs}\n%.o: %.cpp\n\tg++ -Wall -std=c++17 -c $< -o $@\n")
    lines = run_tool(["make", "-k", "-j1"], root).split("\n")
    # Gold: the file's own `In function` / `error:` / `note:` lines with their code frames; the
    # candidates' notes in the standard headers are the compiler's search, not the answer.
    gold, crit = [], []
    own = False
    for i, line in enumerate(lines):
        if line.startswith(f"{bad}.cpp"):
            own = ": warning:" not in line
        elif not re.match(r"^\s+(?:\d+ )?\|", line):  # a code frame continues the line above it
            own = False
        if own or line.startswith("make: ***"):
            gold.append(i + 1)
        if own and re.match(rf"^{bad}\.cpp:\d+:\d+: error:", line):
            crit.append(i + 1)
    question = rng.choice([f"why does {bad}.cpp not compile?", "why does the C++ build fail?"])
    return "\n".join(lines), gold, crit, question


BASH_FAILURES = [
    ('  cp "conf/{name}.conf" "$out/"\n', r"cannot stat"),  # a command's own error, then exit
    ('  echo "limit=$limit_{name}"\n', r"unbound variable"),  # `set -u`
    ("  {name}_reload\n", r"command not found"),
]


def bash_script(rng: random.Random, root: Path) -> Task:
    names = rng.sample(WORDS, rng.randint(8, 14))
    bad = names[rng.randint(3, len(names) - 1)]
    failure, marker = BASH_FAILURES[rng.randrange(len(BASH_FAILURES))]
    (root / "conf").mkdir()
    script = '#!/bin/bash\nset -eu\nout="$(mktemp -d)"\n\n'
    for name in names:
        if name != bad:
            (root / "conf" / f"{name}.conf").write_text(f"limit={rng.randint(1, 99)}\n")
        step = failure.format(name=name) if name == bad else f'  cp "conf/{name}.conf" "$out/"\n'
        script += (
            f'deploy_{name}() {{\n  echo "[info] deploying {name}"\n'
            f'  echo "[info] {name}: {rng.randint(2, 40)} files, checksum ok"\n{step}'
            f'  echo "[info] {name}: restarting service"\n  echo "[ok] {name} deployed"\n}}\n\n'
        )
    for name in names:
        script += f"deploy_{name}\n"
        if rng.random() < 0.3:
            script += f'echo "[warn] {name}: no health check configured, skipping"\n'
    (root / "deploy.sh").write_text(script)
    lines = run_tool(["bash", "deploy.sh"], root).split("\n")
    crit = [i + 1 for i, line in enumerate(lines) if re.search(marker, line)]
    gold = crit + [i + 1 for i, line in enumerate(lines) if line == f"[info] deploying {bad}"]
    question = rng.choice([f"why does deploying {bad} fail?", "why does deploy.sh stop?"])
    return "\n".join(lines), sorted(gold), crit, question


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "maven_compile": maven_compile,
    "maven_test": maven_test,
    "gxx": gxx,
    "bash": bash_script,
}
