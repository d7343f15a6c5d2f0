"""The name a grep hit's line defines, if it is a definition, in any language.

A hit line is all there is (no parse tree), so a definition is read from its shape: a keyword
(`def`, `fn`, `func`, `function`, `fun`, `class`, `enum class`, `defmodule` …) after nothing
but modifiers, annotations and attributes (`pub(crate)`, `public static`, `@JvmStatic`,
`[Obsolete]`, `export default`); a function bound to a name (`export const foo = (a) =>`);
a C macro (`#define NAME`); in a shell script, `name() {`; in the C family (C, C++, Java, C#),
a name after a type (`static int foo(`, `public Task<int> FooAsync(`), which elsewhere is a
call (`return foo(`, `Use foo(x)` in prose).

The keyword must start the line: a minified bundle or a source map holds `function foo` in
the middle of a megabyte line, which defines nothing a reader can look at. `impl X for Y`
defines neither (the trait is defined elsewhere, the type too), and a constructor
(`public Foo(`) is its class's member, not its definition: `class Foo` is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.structure.languages import language_of

# What may come before a definition's keyword: modifiers and annotations, each a word with
# optional arguments (`pub(crate)`, `@Target(FIELD)`), a quoted ABI (`extern "C"`), a C#
# attribute (`[Obsolete]`), a template (`template <typename T>`) or a Rust macro wrapping the
# definition (`ENUM!{enum D3D_SHADER_VARIABLE_TYPE {`).
_MODIFIER = r"(?:[\w$@.]+(?:\([^)]*\))?|\"[^\"]*\"|\[[^\]]*\]|<[^>]*>|\w+!\s*[{(\[])"
_NAME = r"[A-Za-z_$][\w$]*"
# `Mod.name`, `self.name`, `Class::name`, Kotlin's `List<T>.name`: the name is the last part.
_QUALIFIED = rf"(?:{_NAME}(?:<[^>]*>)?(?:\.|::))*({_NAME})"
_KEYWORD = re.compile(
    rf"^\s*(?:{_MODIFIER}\s*(?<=[\s{{(\[])){{0,8}}"
    r"@?(?:func|function\*?|def|defp|defmacro|defmacrop|defmodule|defprotocol|fn|fun|sub|proc|"
    r"class|struct|union|interface|protocol|type|typedef|enum(?:\s+(?:class|struct))?|trait|"
    r"record|object|module|namespace|macro_rules!|data|newtype)"
    r"\s+(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?(?:(?:struct|enum|union)\s+)?[*&]?" + _QUALIFIED
)
# A function or class bound to a name: `const foo = (a) =>`, `export let foo = async function`,
# `foo: function (`, `foo = lambda x:`.
_BOUND = re.compile(
    rf"^\s*(?:(?:export|const|let|var|static|public|private|readonly)\s+)*({_NAME})\s*(?::\s*[^=]+?)?\s*[=:]\s*"
    rf"(?:async\s+)?(?:function\b|class\b|lambda\b|\([^)]*\)\s*(?::\s*[^=]+?)?\s*=>|{_NAME}\s*=>)"
)
_ANYWHERE = re.compile(
    rf"\b(?:func|function|def|fn|fun|class|struct|union|interface|type|typedef|enum|trait)\s+\*?({_NAME})"
)
# Haskell's (PureScript's) top-level type signature, `name :: Type`.
_SIGNATURE = re.compile(r"^([a-z_][\w']*)\s+::\s")
_SQL = re.compile(
    rf"(?i)^\s*create\s+(?:or\s+replace\s+)?(?:table|view|function|procedure|type|index|trigger)\s+"
    rf"(?:if\s+not\s+exists\s+)?(?:\w+\.)?[\"`\[]?({_NAME})"
)
_MACRO = re.compile(rf"^\s*#\s*define\s+({_NAME})")
# PowerShell's `function Get-Item`, `Filter script:Out-Thing`, `Class Dog`: its keywords in any
# case, a scope before the name, and the name with its `-` (read as any language's, `Get`).
_POWERSHELL = re.compile(
    r"^\ufeff?\s*(?:function|filter|workflow|configuration|class|enum)\s+(?:\w+:)?([A-Za-z_][\w-]*)",
    re.IGNORECASE,
)
_SHELL_FUNCTION = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*(?:\{|$)")
# `static int foo(`, `public async Task<List<int>> FooAsync(`, `Foo::Bar Foo::bar(`: words
# (types, modifiers) then the name and `(`.
_TYPED = re.compile(rf"^\s*((?=[A-Za-z_@\[])(?:[\w$@.:\[\]<>,?*&]+\s+){{1,8}})[*&]*{_QUALIFIED}\s*\(")
# Words after which a name and `(` is a call or an expression, not a definition.
_STATEMENTS = frozenset(
    "return new throw await yield else case delete goto sizeof typeof "  # noqa: SIM905 (as words)
    "instanceof echo print puts raise assert not and or in is do go defer using lock if while for "
    "switch catch when".split()
)
# A type before the name is needed: after modifiers alone, `public Foo(` is a constructor.
_MODIFIERS = frozenset(
    "public private protected internal static explicit inline virtual override "  # noqa: SIM905 (as words)
    "final abstract sealed extern async unsafe partial readonly const constexpr friend synchronized "
    "native".split()
)
# A definition's name is near the start of its line: only this much of it is read (a minified
# line of a megabyte is never scanned whole).
HEAD_CHARS = 400


def defined_name(text: str, path: str) -> str | None:
    """The name the hit line `text` of the file at `path` defines, or None."""
    text = text[:HEAD_CHARS]
    shape = _language(path).grep_shape
    if shape == "cmdlet" and (m := _POWERSHELL.match(text)) is not None:
        return m.group(1)
    for pattern in (_KEYWORD, _BOUND, _MACRO, _SIGNATURE, _SQL):
        m = pattern.match(text)
        if m is not None:
            return m.group(1)
    if "(" not in text:
        return None
    if shape == "shell":
        m = _SHELL_FUNCTION.match(text)
        return m.group(1) if m else None
    if shape == "typed":
        return _typed(text)
    return None


def _language(path: str) -> Language:
    # A language is known by the file's name alone (its extension, or `Makefile`): looked up once
    # per name, however many directories hold one (a cache of paths missed on 100k hits in as many
    # files, and built each one's `PurePosixPath`).
    return _language_of_name(next((part for part in reversed(path.split("/")) if part not in ("", ".")), ""))


@lru_cache(maxsize=1024)
def _language_of_name(name: str) -> Language:
    return by_name(language_of(name))


def mentioned_name(text: str) -> str | None:
    """The name after a definition keyword elsewhere in `text`: a weaker sign, as a named
    function bound to a property (`X.prototype.mediaType = function mediaType(`) or a comment
    (`which needs to be of type CURL_CR_CLIENT`) is, when nothing defines the name."""
    m = _ANYWHERE.search(text)
    return m.group(1) if m is not None else None


def _typed(text: str) -> str | None:
    m = _TYPED.match(text)
    if m is None:
        return None
    words = m.group(1).split()
    name = m.group(2)
    if name in _STATEMENTS or any(w in _STATEMENTS for w in words):
        return None
    if all(w in _MODIFIERS for w in words):
        return None
    return name
