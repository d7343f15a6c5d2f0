"""Build tools' failing runs for `log_fresh_tools.py`:
CMake (configure and a Ninja + Clang build), `cargo test`, Gradle (compile and JUnit 4 tests,
offline) and valgrind.

Each function writes a small seeded project where most units pass or only warn and one fails,
runs the real tool, and labels the output as `log_sets.py` does.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from log_fresh_common import as_task, block_from, mark, pick, write
from log_sets import Task, run_tool


def _c_sources(rng: random.Random, root: Path, names: list[str], bad: str) -> None:
    for name in names:
        ret = rng.choice(["  return totl;\n", "  return t.count;\n"]) if name == bad else "  return t;\n"
        write(
            root,
            {
                f"src/{name}.c": (
                    f"int {name}_total(int n) {{\n  int unused_{name} = n;\n  int t = n * 2;\n{ret}}}\n"
                )
            },
        )


def cmake_build(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    _c_sources(rng, root, names, bad)
    srcs = " ".join(f"src/{n}.c" for n in names)
    write(
        root,
        {
            "CMakeLists.txt": (
                f"cmake_minimum_required(VERSION 3.16)\nproject(proj C)\nadd_compile_options(-Wall)\n"
                f"add_library(proj {srcs})\n"
            )
        },
    )
    env = {"CC": "clang"}
    out = run_tool(["cmake", "-G", "Ninja", "-B", "build"], root, env)
    out += run_tool(["cmake", "--build", "build", "--", "-k", "0", "-j", "1"], root, env)
    lines = out.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("FAILED: ") and f"{bad}.c" in x)
    block = block_from(lines, start, re.compile(r"^\[\d+/\d+\]|^ninja: "))
    # the failing file's `-Wall` warning line (its unused variable) is not the error
    gold, crit = mark(
        lines,
        lambda i, x: (i in block and "warning:" not in x) or x.startswith("ninja: build stopped"),
        lambda x: ": error:" in x,
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does {bad}.c not compile?", "why does the cmake build fail?"])
    )


def cmake_configure(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    _c_sources(rng, root, [n for n in names if n != bad], bad)
    body = "cmake_minimum_required(VERSION 3.16)\nproject(proj C)\n"
    for name in names:
        body += f'message(STATUS "component {name}: enabled")\n'
    body += f"add_library(proj {' '.join(f'src/{n}.c' for n in names)})\n"
    write(root, {"CMakeLists.txt": body})
    lines = run_tool(["cmake", "-G", "Ninja", "-B", "build"], root, {"CC": "clang"}).split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("CMake Error at"))
    block = block_from(lines, start, re.compile(r"^-- |^CMake Generate step failed"))
    gold, crit = mark(
        lines,
        lambda i, x: i in block or x.startswith("CMake Generate step failed"),
        lambda x: "CMake Error" in x or f"{bad}.c" in x,
    )
    return as_task(
        lines, gold, crit, rng.choice(["why does cmake fail to configure?", f"why is {bad}.c not found?"])
    )


def cargo_test(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 5, 8)
    mods = []
    for name in names:
        tests = ""
        for k in range(rng.randint(2, 4)):
            want = k + 2 if name == bad and k == 1 else k + 1
            tests += (
                f"    #[test]\n    fn total_case_{k}() {{\n        assert_eq!(total({k + 1}), {want});\n"
                f"    }}\n"
            )
        write(
            root,
            {
                f"src/{name}.rs": (
                    f"pub fn total(n: u32) -> u32 {{\n    n\n}}\n\n"
                    "#[cfg(test)]\nmod tests {\n    use super::*;\n"
                    f"{tests}}}\n"
                )
            },
        )
        mods.append(f"pub mod {name};")
    write(
        root,
        {
            "src/lib.rs": "\n".join(mods) + "\n",
            "Cargo.toml": '[package]\nname = "proj"\nversion = "0.1.0"\nedition = "2021"\n',
        },
    )
    env = {"CARGO_TARGET_DIR": str(root / "target"), "RUST_BACKTRACE": "1"}
    lines = run_tool(["cargo", "test", "--offline", "--", "--test-threads", "1"], root, env).split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith(f"---- {bad}::tests::"))
    block = block_from(lines, start, re.compile(r"^(failures:|---- )"))
    gold, crit = mark(
        lines,
        lambda i, x: (
            (i in block and "note: Some details" not in x)
            or x.startswith(("test result: FAILED", "error: test failed"))
            or x.strip() == f"{bad}::tests::total_case_1"
        ),
        lambda x: "panicked at" in x or re.match(r"^\s+(left|right):", x) is not None,
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does the {bad} test panic?", "which cargo test fails?"])
    )


def _gradle(root: Path, task: str) -> list[str]:
    return run_tool(["gradle", "--offline", "--no-daemon", "--console=plain", task], root).split("\n")


def gradle_compile(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 8, 12)
    write(
        root,
        {
            "build.gradle": "apply plugin: 'java'\n"
            "tasks.withType(JavaCompile) { options.compilerArgs << '-Xlint:all' }\n"
        },
    )
    for name in names:
        cls = name.title()
        ret = (
            rng.choice(["        return count;\n", '        return items.size() + "";\n'])
            if name == bad
            else "        return items.size();\n"
        )
        write(
            root,
            {
                f"src/main/java/{cls}.java": (
                    f"import java.util.*;\n\npublic class {cls} {{\n    public static int total(int n) {{\n"
                    f"        List items = new ArrayList();\n        items.add(n);\n{ret}    }}\n}}\n"
                )
            },
        )
    lines = _gradle(root, "compileJava")
    start = next(i for i, x in enumerate(lines) if re.search(rf"/{bad.title()}\.java:\d+: error:", x))
    block = block_from(lines, start, re.compile(r"\.java:\d+: (warning|error)|^\d+ (error|warning)"))
    gold, crit = mark(
        lines,
        lambda i, x: (
            i in block
            or bool(
                re.match(
                    r"^(\* What went wrong:|Execution failed for task|> Compilation failed|BUILD FAILED)", x
                )
            )
        ),
        lambda x: ": error:" in x,
    )
    return as_task(
        lines,
        gold,
        crit,
        rng.choice([f"why does {bad.title()}.java not compile?", "why does the gradle build fail?"]),
    )


def gradle_test(rng: random.Random, root: Path) -> Task:
    names, bad = pick(rng, 4, 7)
    jars = "'/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'"
    write(root, {"build.gradle": f"apply plugin: 'java'\ndependencies {{ testCompile files({jars}) }}\n"})
    for name in names:
        cls, cases = name.title(), ""
        for k in range(rng.randint(2, 4)):
            want = k + 2 if name == bad and k == 1 else k + 1
            cases += (
                f"    @Test public void totalCase{k}() {{\n        assertEquals({want}, Math.abs({k + 1}));\n"
                f"    }}\n"
            )
        write(
            root,
            {
                f"src/test/java/{cls}Test.java": (
                    "import org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\n"
                    f"public class {cls}Test {{\n"
                    f"{cases}}}\n"
                )
            },
        )
    lines = _gradle(root, "test")
    start = next(i for i, x in enumerate(lines) if x.startswith(f"{bad.title()}Test > totalCase1 FAILED"))
    block = block_from(lines, start, re.compile(r"^\S"))
    gold, crit = mark(
        lines,
        lambda i, x: (
            i in block
            or bool(
                re.match(
                    r"^(\d+ tests completed, \d+ failed|\* What went wrong:|Execution failed for task"
                    r"|> There were failing|:test FAILED|BUILD FAILED)",
                    x,
                )
            )
        ),
        lambda x: "AssertionError" in x or ("FAILED" in x and "Test >" in x),
    )
    return as_task(
        lines, gold, crit, rng.choice([f"why does {bad.title()}Test fail?", "which gradle test fails?"])
    )


def valgrind(rng: random.Random, root: Path) -> Task:
    steps = rng.randint(20, 40)
    fail = rng.randint(steps // 2, steps - 2)
    kind = rng.choice(["read", "free"])
    bug = "  return p[n];\n" if kind == "read" else "  free(p);\n  return p[0];\n"
    write(
        root,
        {
            "app.c": "#include <stdio.h>\n#include <stdlib.h>\n\n"
            "int lookup(int n) {\n  int *p = malloc(4 * sizeof(int));\n"
            "  for (int i = 0; i < 4; i++) p[i] = i;\n"
            f"  if (n != {fail}) {{ int v = p[n % 4]; free(p); return v; }}\n{bug}}}\n\n"
            f'int main(void) {{\n  for (int n = 0; n < {steps}; n++) printf("[info] record %d -> %d\\n'
            f'", n, lookup(n));\n  return 0;\n}}\n'
        },
    )
    run_tool(["gcc", "-g", "-O0", "-o", "app", "app.c"], root)
    lines = run_tool(["valgrind", "--error-exitcode=1", "./app"], root).split("\n")
    lines = [re.sub(r"==\d+==", "==4242==", x) for x in lines]  # the pid differs per run
    start = next(i for i, x in enumerate(lines) if re.match(r"^==\d+== Invalid ", x))
    block = block_from(lines, start, re.compile(r"^==\d+== $|^\[info\]"))
    gold, crit = mark(lines, lambda i, x: i in block or "ERROR SUMMARY: " in x, lambda x: "Invalid " in x)
    return as_task(
        lines,
        gold,
        crit,
        rng.choice(["what memory error does valgrind report?", "why does lookup read invalid memory?"]),
    )


SCENARIOS: dict[str, Callable[[random.Random, Path], Task]] = {
    "cmake_build": cmake_build,
    "cmake_configure": cmake_configure,
    "cargo_test": cargo_test,
    "gradle_compile": gradle_compile,
    "gradle_test": gradle_test,
    "valgrind": valgrind,
}
