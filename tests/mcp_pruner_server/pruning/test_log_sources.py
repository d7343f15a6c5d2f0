import pytest

from mcp_pruner_server.pruning.log_sources import without_sources

MESSAGES = [
    "Starting server",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "ValueError: bad port",
    "listening on :8080",
    "shutting down",
]


@pytest.mark.parametrize(
    "prefix",
    [
        "api-1  | ",  # docker compose v2
        "db_1   | ",  # docker-compose v1
        "[pod/api-7c9d5/app] ",  # kubectl logs --prefix
        "web:build: ",  # turbo
        "@acme/ui:test: ",
    ],
)
def test_the_source_every_line_begins_with_is_set_aside(prefix: str) -> None:
    assert without_sources([prefix + m for m in MESSAGES]) == MESSAGES


@pytest.mark.parametrize(
    "lines",
    [
        MESSAGES,
        ["alice | 30", "bob | 41", "carol | 27", "dave | 35", "erin | 22"],  # a table is no source
        ["src/x.go:16:9: invalid operation", *(f"src/x.go:{k}:1: unused" for k in range(5))],  # diagnostics
        ["api-1  | a", "b", "c", "d", "e", "f", "g"],
    ],
)
def test_lines_without_a_source_are_left_alone(lines: list[str]) -> None:
    assert without_sources(lines) is None
