"""The registry finds each language's record by its name, and each extension, file name and
interpreter says one language only."""

from __future__ import annotations

import pkgutil
from collections import Counter

from mcp_pruner_server.pruning import languages
from mcp_pruner_server.pruning.languages.registry import LANGUAGES, UNKNOWN, by_name, grammar_of


def test_every_module_of_the_package_is_the_record_of_the_language_it_is_named_for() -> None:
    modules = {m.name for m in pkgutil.iter_modules(languages.__path__)} - {"record", "registry"}
    assert modules == set(LANGUAGES)
    assert all(by_name(name).name == name for name in modules)


def test_an_extension_a_file_name_or_an_interpreter_says_one_language_only() -> None:
    for field in ("extensions", "file_names", "interpreters"):
        counts = Counter(value for lang in LANGUAGES.values() for value in getattr(lang, field))
        assert [value for value, n in counts.items() if n > 1] == [], field


def test_a_claimed_extension_is_another_languages_or_no_ones_and_claimed_once() -> None:
    claims = Counter(ext for lang in LANGUAGES.values() for ext in lang.claims)
    assert all(n == 1 for n in claims.values())
    for lang in LANGUAGES.values():
        assert not set(lang.claims) & set(lang.extensions), lang.name
        assert (lang.recognises is None) == (not lang.claims), lang.name


def test_every_grammar_a_record_names_is_installed_and_loads() -> None:
    missing = [
        lang.name for lang in LANGUAGES.values() if lang.grammar is not None and grammar_of(lang.name) is None
    ]
    assert missing == []


def test_an_unknown_or_absent_language_is_the_record_of_nothing_of_its_own() -> None:
    assert by_name(None) is UNKNOWN
    assert by_name("no-such-language") is UNKNOWN
    assert UNKNOWN.grammar is None
    assert UNKNOWN.scanner is None
