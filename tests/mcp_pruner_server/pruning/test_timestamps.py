import pytest

from mcp_pruner_server.pruning.timestamps import without_timestamps

MESSAGES = [
    "Collecting packages",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "ValueError: bad port",
    "error[E0308]: mismatched types",
    "src/stock.go:16:9: invalid operation",
]


@pytest.mark.parametrize(
    "stamp",
    [
        "2026-11-24T16:00:05.1234567Z ",  # GitHub Actions, docker logs -t, kubectl --timestamps
        "2026-11-24 16:00:05,123 ",  # Python logging
        "2026/11/24 16:00:05 ",  # Go's log
        "[2026-11-24 16:00:05] ",
        "[16:00:05] ",
        "16:00:05.123 ",
        "[   12.345678] ",  # dmesg
        "Nov 24 16:00:05 build-01 runner[4242]: ",  # syslog
        "2026-11-24T16:00:05+02:00\t",
    ],
)
def test_the_stamp_every_line_begins_with_is_set_aside(stamp: str) -> None:
    lines = [stamp + m for m in MESSAGES]
    assert without_timestamps(lines) == MESSAGES


def test_unstamped_continuation_lines_stay_as_they_are() -> None:
    lines = [
        "2026-11-24 16:00:05,123 ERROR crashed",
        *MESSAGES[1:4],
        *[f"2026-11-24 16:00:06,000 INFO step {k}" for k in range(6)],
    ]
    out = without_timestamps(lines)
    assert out is not None
    assert out[:4] == ["ERROR crashed", *MESSAGES[1:4]]


@pytest.mark.parametrize(
    "lines",
    [
        MESSAGES,  # no stamp
        ["12:00:00 a", "b", "c", "d", "e", "f", "g"],  # one stamped line is no stamped log
        ["def f():", "    return 1", "x = 12:30:00", "", "y = 2", "z = 3"],
        ["16:00:05 a", "16:00:06 b"],  # too few lines to tell
    ],
)
def test_a_text_whose_lines_are_not_stamped_is_left_alone(lines: list[str]) -> None:
    assert without_timestamps(lines) is None
