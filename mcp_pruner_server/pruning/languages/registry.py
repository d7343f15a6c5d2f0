"""The registry of the languages' records: each by its name, and by the extensions, file names and
shebang interpreters that say it."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings
from typing import TYPE_CHECKING

from mcp_pruner_server.pruning import languages
from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.code_blocks import BANG_COMMENT
from mcp_pruner_server.pruning.structure.language_hooks import LanguageHooks

if TYPE_CHECKING:
    import tree_sitter

# The modules of this package that are no language's record.
_NOT_LANGUAGES = frozenset({"record", "registry"})


def _records() -> list[Language]:
    """Every language module's `LANGUAGE`: a language is added by adding its module, nothing else."""
    names = sorted(m.name for m in pkgutil.iter_modules(languages.__path__) if m.name not in _NOT_LANGUAGES)
    records = []
    for name in names:
        record = importlib.import_module(f"{languages.__name__}.{name}").LANGUAGE
        assert isinstance(record, Language), name
        assert record.name == name, name  # found by its module's name
        records.append(record)
    return records


# Name -> record.
LANGUAGES: dict[str, Language] = {lang.name: lang for lang in _records()}
# A text of no known language: every field says "nothing of its own"; its comments may be
# Fortran's `!` too (a Fortran text without its path).
UNKNOWN = Language(name="", comment=BANG_COMMENT)
# Suffix (lower case, with its dot), whole file name (lower case), shebang interpreter -> record.
BY_EXTENSION = {ext: lang for lang in LANGUAGES.values() for ext in lang.extensions}
BY_FILE_NAME = {name: lang for lang in LANGUAGES.values() for name in lang.file_names}
BY_INTERPRETER = {i: lang for lang in LANGUAGES.values() for i in lang.interpreters}
# Suffix -> the language that takes it from its owner when its `recognises` says so.
CLAIMANTS = {ext: lang for lang in LANGUAGES.values() for ext in lang.claims}


def by_name(name: str | None) -> Language:
    """The record of the language `name` (a key of `LANGUAGES`), `UNKNOWN` for None or another."""
    return LANGUAGES.get(name or "", UNKNOWN)


def hooks_of(name: str | None) -> LanguageHooks:
    """The ranking rules of the language `name` (`NO_HOOKS` for None or an unknown one)."""
    return by_name(name).hooks


@functools.cache
def grammar_of(name: str) -> tree_sitter.Language | None:
    """The tree-sitter grammar of the language `name`, None without one or when its wheel is not
    installed (grammars are optional at run time)."""
    grammar = by_name(name).grammar
    if grammar is None:
        return None
    try:
        import tree_sitter

        module = importlib.import_module(grammar.module)
        with warnings.catch_warnings():  # an older wheel (Perl's) hands over an int, deprecated
            warnings.simplefilter("ignore", DeprecationWarning)
            return tree_sitter.Language(getattr(module, grammar.entry)())
    except (ImportError, AttributeError, ValueError):
        return None
