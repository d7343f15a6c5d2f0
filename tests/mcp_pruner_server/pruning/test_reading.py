"""A log whose lines a terminal or a logger decorated is pruned as the plain log is, shown as given."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

QUESTION = "Why does test_checkout_total fail?"


def _pytest_log() -> list[str]:
    lines = ["============================= test session starts =============================="]
    lines += [f"tests/test_cart.py::test_case_{k} PASSED" for k in range(60)]
    lines += [
        "tests/test_cart.py::test_checkout_total FAILED",
        "=================================== FAILURES ===================================",
        "_____________________________ test_checkout_total ______________________________",
        "    def test_checkout_total():",
        ">       assert checkout([3, 4]).total == 8",
        "E       assert 7 == 8",
        "E        +  where 7 = Receipt(total=7).total",
        "tests/test_cart.py:41: AssertionError",
    ]
    lines += [f"tests/test_stock.py::test_level_{k} PASSED" for k in range(60)]
    lines += [
        "FAILED tests/test_cart.py::test_checkout_total - assert 7 == 8",
        "1 failed, 120 passed in 0.52s",
    ]
    return lines


def _kept(lines: list[str]) -> list[int]:
    result = prune("\n".join(lines), QUESTION, "logs", PruneOptions(), "prn_t")
    shown = result.pruned_text.split("\n")
    return [i for i, line in enumerate(lines) if line in shown]


@pytest.mark.parametrize(
    "decorate",
    [
        lambda i, line: f"2026-11-24T16:00:{i % 60:02d}.1234567Z {line}",  # a CI runner's raw log
        lambda i, line: f"Nov 24 16:00:{i % 60:02d} ci-7 pytest[311]: {line}",  # syslog
        lambda i, line: re.sub(r"^(\S+)", "\x1b[1;31m\\1\x1b[0m", line),  # colours
        lambda i, line: f"tests-1  | {line}",  # docker compose
    ],
)
def test_a_decorated_log_keeps_what_the_plain_log_keeps(decorate: Callable[[int, str], str]) -> None:
    plain = _pytest_log()
    decorated = [decorate(i, line) for i, line in enumerate(plain)]
    kept = _kept(plain)
    assert plain.index("E       assert 7 == 8") in kept
    assert _kept(decorated) == kept


def test_a_service_and_a_stamp_before_each_line_are_both_set_aside() -> None:
    plain = _pytest_log()
    decorated = [f"tests-1  | 2026-11-24T16:00:{i % 60:02d}.123Z {line}" for i, line in enumerate(plain)]
    assert _kept(decorated) == _kept(plain)
