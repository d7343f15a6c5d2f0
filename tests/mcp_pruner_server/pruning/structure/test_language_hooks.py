"""Each language's rules are its record's hooks: `code_units` reads them, never a language's name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.languages.registry import LANGUAGES, hooks_of
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.language_hooks import NO_HOOKS, LanguageHooks, Ranked
from mcp_pruner_server.pruning.structure.powershell_blocks import powershell_blocks

LINES = [
    "def load_config(path):",
    "    return read(path)",
    "",
    "def save_config(path, data):",
    "    write(path, data)",
]


def _best(lang: str, question: str) -> str:
    query = query_weights(question)
    lh = line_hits(line_terms(LINES), query)
    units = code_units(LINES, lh, query, window_scores(query, lh), lang=lang, question=question)
    return LINES[max(units, key=lambda u: u.score).lines[0]]


def _save_first(ranked: Ranked, scores: Sequence[float]) -> list[float]:
    return [s * 10 if name == "save_config" else s for s, name in zip(scores, ranked.names, strict=True)]


def test_a_new_languages_reorder_is_a_field_of_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    question = "load the config"
    assert _best("toylang", question) == "def load_config(path):"
    monkeypatch.setitem(
        LANGUAGES, "toylang", Language("toylang", hooks=LanguageHooks(reorders=(_save_first,)))
    )
    assert _best("toylang", question) == "def save_config(path, data):"


def test_a_new_languages_name_hits_join_the_name_field(monkeypatch: pytest.MonkeyPatch) -> None:
    question = "frobnicate the config"  # a word of neither definition

    def frob_is_save(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
        implied = {t: 1 for t in query if t.startswith("frob")}
        return implied if "save" in lines[block.header] else {}

    assert _best("toylang", question) == "def load_config(path):"
    toylang = Language("toylang", hooks=LanguageHooks(name_hits=(frob_is_save,)))
    monkeypatch.setitem(LANGUAGES, "toylang", toylang)
    assert _best("toylang", question) == "def save_config(path, data):"


def test_a_language_without_a_record_has_no_rules() -> None:
    assert hooks_of(None) is NO_HOOKS
    assert hooks_of("no-such-language") is NO_HOOKS
    assert hooks_of("powershell").block_finder is powershell_blocks
