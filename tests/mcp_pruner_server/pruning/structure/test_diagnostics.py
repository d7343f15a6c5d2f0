"""Build tools' errors without an error word, and what stays with an error."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.deadline import NO_DEADLINE
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.structure.diagnostics import belonging, diagnostic_lines
from mcp_pruner_server.pruning.types import PruneOptions


def found(lines: list[str]) -> list[int]:
    text = "\n".join(lines)
    return diagnostic_lines(text, lines, LineIndex(text, lines), NO_DEADLINE)


@pytest.mark.parametrize(
    "line",
    [
        'stock/stock.go:16:9: invalid operation: t + "1" (mismatched types int and untyped string)',
        "  × python setup.py egg_info did not run successfully.",
        "--- FAIL: TestCartCase1 (0.00s)",
        "* What went wrong:",
        "deploy.sh: line 37: queue_reload: command not found",
        "cp: cannot stat 'conf/filter.conf': No such file or directory",
        "deploy.sh: line 12: limit_cart: unbound variable",
    ],
)
def test_errors_without_an_error_word_are_found(line: str) -> None:
    assert found(["ok 1", line, "ok 2"]) == [1]


@pytest.mark.parametrize(
    "line",
    [
        "cache.c:7:7: warning: unused variable 'unused_cache' [-Wunused-variable]",
        "cache.c:11:10: note: each undeclared identifier is reported only once",
        "2026-11-23T10:00:05.005Z INFO db.migrate: compiled package #5",
        "src/app.py:12:    x = 1",
        "[info] deploying cart: line 3 of 9 done",
    ],
)
def test_warnings_notes_and_plain_lines_are_not_errors(line: str) -> None:
    assert found([line]) == []


def test_a_rustc_error_keeps_its_frame_and_help_block_across_a_blank_line() -> None:
    lines = [
        "error[E0308]: mismatched types",
        " --> src/route.rs:6:5",
        "  |",
        "6 |     n + 1",
        "  |     ^^^^^ expected `String`, found `u32`",
        "",
        "help: try using a conversion method",
        "  |",
        "6 |     (n + 1).to_string()",
        "",
        "warning: unused variable: `x`",
    ]
    assert belonging(lines, 0) == list(range(1, 9))  # not the blank line before the warning


def test_a_javac_error_keeps_its_source_line_caret_symbol_and_location() -> None:
    lines = [
        "Invoice.java:7: error: cannot find symbol",
        "        return count;",
        "               ^",
        "  symbol:   variable count",
        "  location: class Invoice",
        "Ledger.java:5: warning: [rawtypes] found raw type: List",
    ]
    assert belonging(lines, 0) == [1, 2, 3, 4]


def test_a_node_error_keeps_its_location_above_and_its_stack_below() -> None:
    lines = [
        "[info] processed record 9",
        "/work/proj/app.js:6",
        "  return rec.order.id;",
        "             ^",
        "",
        "TypeError: Cannot read properties of undefined (reading 'order')",
        "    at render (/work/proj/app.js:6:14)",
        "    at main (/work/proj/app.js:10:52)",
        "",
        "Node.js v20.20.2",
        "[info] done",
    ]
    assert belonging(lines, 5) == [6, 7, 8, 9, 1, 2, 3, 4]


def test_a_go_panic_keeps_its_goroutine_stack() -> None:
    lines = [
        "panic: assignment to entry in nil map [recovered]",
        "goroutine 7 [running]:",
        "example.com/proj/cart.TestPanics(0xc000104820)",
        "\t/work/proj/cart/cart_test.go:40 +0x2d",
        "created by testing.(*T).Run",
        "FAIL\texample.com/proj/cart\t0.004s",
    ]
    assert belonging(lines, 0) == [1, 2, 3, 4]


def test_a_pip_box_and_its_gcc_notes_stay_with_the_error_in_a_pruned_log() -> None:
    noise = [f"  Building wheel for pkg{k} (setup.py): finished with status 'done'" for k in range(200)]
    box = [
        "  × python setup.py egg_info did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> [1 lines of output]",
    ]
    gcc = [
        "cache.c:11:10: error: 'totl' undeclared (first use in this function)",
        "   11 |   return totl;",
        "      |          ^~~~",
        "cache.c:11:10: note: each undeclared identifier is reported only once for each function",
    ]
    text = "\n".join([*noise[:100], *box, *noise[100:], *gcc, *noise[:50]])
    options = PruneOptions(max_prune_ratio=0.95, min_keep_lines=0, include_markers=False)
    kept = prune(text, "why does the install fail?", "logs", options, "t").pruned_text.split("\n")
    assert all(line in kept for line in [*box, *gcc])


@pytest.mark.parametrize("line", ["  ● cart › totals case 1", " ✘ Total case 1"])
def test_a_test_runners_failed_test_mark_is_an_error(line: str) -> None:
    assert found(["ok 1", line, "ok 2"]) == [1]


def test_a_header_over_a_pointer_to_its_location_is_an_error_unless_a_warning() -> None:
    lines = [
        "F821 Undefined name `cart_count`",
        " --> cart.py:4:12",
        "warning: unused variable: `x`",
        " --> src/lib.rs:2:9",
    ]
    assert found(lines) == [0]


def test_ruby_and_php_stack_frames_stay_with_their_error() -> None:
    ruby = [
        "app.rb:6:in `render': undefined method `[]' for nil:NilClass (NoMethodError)",
        "",
        "  rec[:id]",
        "     ^^^^^",
        "\tfrom app.rb:10:in `block in <main>'",
        "\tfrom app.rb:9:in `<main>'",
        "[info] processed record 0",
    ]
    assert belonging(ruby, 0) == [1, 2, 3, 4, 5]
    php = [
        "PHP Fatal error:  Uncaught TypeError: render(): Argument #1 ($rec) must be of type array",
        "Stack trace:",
        "#0 /work/proj/app.php(6): render()",
        "#1 {main}",
        "  thrown in /work/proj/app.php on line 3",
        "[info] processed record 0",
    ]
    assert belonging(php, 0) == [1, 2, 3, 4]


def test_lines_indented_under_an_error_stay_with_it_across_blank_lines() -> None:
    lines = [
        "CMake Error at CMakeLists.txt:12 (add_library):",
        "  Cannot find source file:",
        "",
        "    src/account.c",
        "",
        "  Tried extensions .c .C .c++ .cc .cpp .cxx",
        "",
        "",
        "-- Configuring incomplete, errors occurred!",
    ]
    assert belonging(lines, 0) == [1, 2, 3, 4, 5]


def test_an_indented_error_keeps_the_lines_it_is_indented_under() -> None:
    eslint = [
        "/work/proj/src/invoice.js",
        "  2:9   warning  'unused' is assigned a value but never used  no-unused-vars",
        "  3:10  error    'invoiceCount' is not defined                no-undef",
        "",
    ]
    assert belonging(eslint, 2) == [0]
    rspec = [
        "Failures:",
        "",
        "  1) Payment totals case 1",
        "     Failure/Error: expect([2].sum).to eq(3)",
        "",
        "       expected: 3",
        "            got: 2",
        "     # ./spec/payment_spec.rb:7:in `block (2 levels) in <top (required)>'",
        "",
        "Finished in 0.03 seconds",
    ]
    assert sorted(belonging(rspec, 3)) == [2, 4, 5, 6, 7]


def test_a_numbered_failures_title_above_a_blank_line_stays_with_its_error() -> None:
    lines = [
        "  1 failing",
        "",
        "  1) price",
        "       totals case 1:",
        "",
        "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    ]
    assert sorted(belonging(lines, 5)) == [2, 3, 4]


@pytest.mark.parametrize(
    "line",
    [
        "e: file:///work/proj/src/main/kotlin/Cart.kt:3:5 Unresolved reference: totl",
        "npm ERR! code ELIFECYCLE",
        " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  proj@1.0.0 build: `tsc`",
        "not ok 6 - case 5",
        "==4242== Invalid read of size 4",
        "==4242== 120 bytes in 3 blocks are definitely lost in loss record 1 of 1",
        "l.c:(.text+0xa): undefined reference to `helper'",
        "make: *** No rule to make target 'prog', needed by 'all'.  Stop.",
        "make[1]: *** [Makefile:2: all] Error 1",
    ],
)
def test_kotlin_node_tap_valgrind_and_linker_error_marks_are_errors(line: str) -> None:
    assert found(["ok 1", line, "ok 2"]) == [1]


def test_a_numbered_failures_body_stays_with_its_error_at_the_same_indent() -> None:
    lines = [
        "  1) test adds (MathTest)",
        "     test/math_test.exs:5",
        "     Assertion with == failed",
        "     code:  assert 1 + 1 == 3",
        "     left:  2",
        "     right: 3",
        "     stacktrace:",
        "       test/math_test.exs:6: (test)",
        "",
        "Finished in 0.02 seconds",
    ]
    assert sorted(belonging(lines, 2)) == [0, 1, 3, 4, 5, 6, 7]


def test_an_ocaml_error_keeps_its_file_location_and_frame_above() -> None:
    lines = [
        "(cd _build/default && ocamlc -c bin/main.ml)",
        'File "bin/main.ml", line 3, characters 10-13:',
        "3 | let () = foo 1",
        "              ^^^",
        "Error: Unbound value foo",
    ]
    assert belonging(lines, 4) == [1, 2, 3]


def test_a_valgrind_error_keeps_its_frames_and_notes() -> None:
    lines = [
        "==4242== Invalid read of size 4",
        "==4242==    at 0x1091EF: lookup (app.c:9)",
        "==4242==    by 0x10920D: main (app.c:13)",
        "==4242==  Address 0x4a41530 is 0 bytes inside a block of size 16 free'd",
        "==4242== ",
        "[info] record 0 -> 0",
    ]
    assert belonging(lines, 0) == [1, 2, 3]


def test_a_node_errors_printed_properties_stay_with_it_to_their_closing_brace() -> None:
    lines = [
        "Error: ENOENT: no such file or directory, open 'filter.config.json'",
        "    at readConfig (/work/proj/build.js:4:13) {",
        "  errno: -2,",
        "  code: 'ENOENT',",
        "}",
        "",
        "Node.js v20.20.2",
    ]
    assert belonging(lines, 0) == [1, 2, 3, 4, 5, 6]


def test_a_julia_error_keeps_its_stacktrace() -> None:
    lines = [
        "ERROR: LoadError: UndefVarError: `totl` not defined",
        "Stacktrace:",
        " [1] top-level scope",
        "   @ /work/proj/cart.jl:3",
        "in expression starting at /work/proj/cart.jl:3",
    ]
    assert belonging(lines, 0) == [1, 2, 3]


def test_a_numbered_failure_keeps_a_message_line_printed_unindented_inside_its_body() -> None:
    lines = [
        "  1) price",
        "       totals case 1:",
        "",
        "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        "",
        "2 !== 3",
        "",
        "      + expected - actual",
        "",
        "      -2",
        "      +3",
        "      ",
        "      at Context.<anonymous> (test/price.test.js:8:12)",
        "",
        "",
        "Finished.",
    ]
    assert sorted(belonging(lines, 3)) == [0, 1, 2, *range(4, 13)]


def test_a_vitest_failure_keeps_its_diff_location_and_code_frame() -> None:
    lines = [
        " FAIL  test/stock.test.js > stock > totals case 1",
        "AssertionError: expected 2 to be 3 // Object.is equality",
        "",
        "- Expected",
        "+ Received",
        "",
        "- 3",
        "+ 2",
        "",
        " ❯ test/stock.test.js:8:15",
        "      7|   it('totals case 1', () => {",
        "      8|     expect(2).toBe(3);",
        "       |               ^",
        "",
        "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
    ]
    assert belonging(lines, 1) == list(range(2, 13))


def test_an_error_header_ending_in_a_colon_keeps_the_paragraph_it_announces() -> None:
    lines = [
        "Failed examples:",
        "",
        "rspec ./spec/payment_spec.rb:6 # Payment totals case 1",
        "rspec ./spec/cart_spec.rb:9 # Cart totals case 2",
        "",
        "Randomized with seed 4242",
    ]
    assert belonging(lines, 0) == [1, 2, 3]


def test_the_message_under_an_error_header_keeps_the_frames_below_it() -> None:
    lines = [
        "rake aborted!",
        "asset manifest for invoice is missing",
        "/work/proj/Rakefile:27:in `block in <top (required)>'",
        "Tasks: TOP => default => invoice",
    ]
    assert belonging(lines, 0) == [1, 2]


def test_a_go_vet_error_is_found_and_keeps_its_package_line() -> None:
    lines = [
        "# example.com/proj/filter",
        "filter/filter.go:5:2: declared and not used: x",
        "vet: filter/filter.go:8:17: cannot use t (variable of type int) as string value",
        "example.com/proj/buffer",
    ]
    assert found(lines) == [1, 2]
    assert belonging(lines, 2) == [0]


def test_a_go_test_failure_stops_at_the_next_tests_result() -> None:
    lines = [
        "--- FAIL: TestCartCase1 (0.00s)",
        "    cart_test.go:12: Total(10) = 46, want 45",
        "--- PASS: TestCartCase2 (0.00s)",
        "-- Configuring done",
    ]
    assert belonging(lines, 0) == [1]
