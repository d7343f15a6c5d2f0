"""The registry of the languages' records: each by its name, and by the extensions, file names and
shebang interpreters that say it."""

from __future__ import annotations

import functools
import importlib
import warnings
from typing import TYPE_CHECKING

from mcp_pruner_server.pruning.languages import (
    bash,
    c,
    clojure,
    commonlisp,
    cpp,
    crystal,
    csharp,
    dart,
    elisp,
    elixir,
    erlang,
    fortran,
    fsharp,
    fsharp_signature,
    go,
    groovy,
    haskell,
    java,
    javascript,
    julia,
    kotlin,
    lua,
    matlab,
    nim,
    objc,
    objcpp,
    ocaml,
    ocaml_interface,
    pascal,
    perl,
    php,
    php_only,
    powershell,
    python,
    r,
    ruby,
    rust,
    scala,
    solidity,
    sql,
    swift,
    tsx,
    typescript,
    vbnet,
    zig,
)
from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.language_hooks import LanguageHooks

if TYPE_CHECKING:
    import tree_sitter

_MODULES = (
    python,
    javascript,
    typescript,
    tsx,
    go,
    groovy,
    rust,
    c,
    cpp,
    java,
    csharp,
    ruby,
    php,
    php_only,
    bash,
    kotlin,
    lua,
    zig,
    haskell,
    dart,
    swift,
    ocaml,
    ocaml_interface,
    perl,
    objc,
    scala,
    solidity,
    elixir,
    julia,
    fsharp,
    fortran,
    r,
    objcpp,
    erlang,
    clojure,
    elisp,
    fsharp_signature,
    commonlisp,
    powershell,
    crystal,
    nim,
    sql,
    vbnet,
    pascal,
    matlab,
)
# Name -> record.
LANGUAGES: dict[str, Language] = {m.LANGUAGE.name: m.LANGUAGE for m in _MODULES}
# A text of no known language: every field says "nothing of its own".
UNKNOWN = Language(name="")
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
