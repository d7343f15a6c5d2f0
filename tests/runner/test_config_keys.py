"""`runner.config_keys`: a misspelt `jeeves.toml` key is named, a documented one never is."""

from __future__ import annotations

import re
from pathlib import Path

from runner.config import _SETTINGS
from runner.config_keys import unknown_keys

DOCS = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
RUNNER_KEYS = [key for _, key, _ in _SETTINGS.values() if key is not None]


def _documented_keys(table: str) -> set[str]:
    """The `TOML key` column of the settings tables of docs/configuration.md whose table is `table`."""
    text = DOCS.read_text(encoding="utf-8")
    keys: set[str] = set()
    for section in re.split(r"^## ", text, flags=re.MULTILINE):
        if f"`[{table}]`" not in section.split("\n|", 1)[0]:
            continue
        for line in section.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| `") and len(cells) > 2:
                keys |= set(re.findall(r"`([a-z_]+)`", cells[1]))
    return keys


def test_every_documented_key_is_known() -> None:
    document = {
        "mcp_pruner": dict.fromkeys(_documented_keys("mcp_pruner"), 1),
        "gateway": dict.fromkeys(_documented_keys("gateway"), 1),
    }
    assert len(document["mcp_pruner"]) > 20
    assert len(document["gateway"]) > 5

    assert unknown_keys(document, RUNNER_KEYS) == []


def test_a_key_nothing_reads_is_named_with_the_nearest_known_one() -> None:
    found = unknown_keys({"mcp_pruner": {"prot": 1, "zzzz": 2}, "gateway": {"max_char": 3}}, RUNNER_KEYS)

    assert found == [
        "unknown key prot in [mcp_pruner] (did you mean port?): ignored",
        "unknown key zzzz in [mcp_pruner]: ignored",
        "unknown key max_char in [gateway] (did you mean max_chars?): ignored",
    ]


def test_an_unknown_table_or_top_level_key_is_named() -> None:
    found = unknown_keys({"mcp_prunr": {"port": 1}, "port": 8765}, RUNNER_KEYS)

    assert found == [
        "unknown table [mcp_prunr] (did you mean [mcp_pruner]?): ignored",
        "unknown key port: ignored",
    ]
