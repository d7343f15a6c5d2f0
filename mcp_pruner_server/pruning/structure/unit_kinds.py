"""Kinds of definitions a question's words alone do not tell apart: overload stubs, predicates,
constructors named `new`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.terms import STOPWORDS, stem

# A question asking whether something holds ("Returns true if …", "Checks whether …") is most
# often about a predicate: a definition named `is_…`, `has…`, `IsValid`, `empty?` scores this many
# times its own. Its name's `is` / `has` are stop words, so nothing else tells it from its
# neighbours (`is_root` lost to `parent` for "true if this matcher has no parent"). A boost, not
# a filter: a predicate the question's words do not reach stays behind. A declared boolean result
# makes a predicate too (Go's "X reports whether …" is any `bool` function's doc: `ByIgnore`).
PREDICATE_BOOST = 1.5
_YES_NO = re.compile(
    r"\b(?:whether|(?:true|false)\W{0,2}\s+(?:if|when|iff)|(?:check|test|determine)s?\s+if)\b", re.IGNORECASE
)
_PREDICATE = re.compile(r"^(?:[iI]s|[hH]as|[cC]an|[sS]hould|[cC]ontains|[eE]xists)(?:_|[A-Z0-9]|$)|\?$")


def asks_yes_no(question: str) -> bool:
    """Whether `question` asks if something holds (a predicate's doc: "Returns true if …")."""
    return bool(_YES_NO.search(question))


def is_predicate(name: str | None) -> bool:
    """Whether `name` (`is_empty`, `hasNext`, `Module.empty?`, `_isValid`) names a predicate."""
    return name is not None and bool(_PREDICATE.search(name.rsplit(".", 1)[-1].lstrip("_")))


# A signature declaring a boolean result: `) bool {` (Go), `-> bool` (Rust, Python, Swift's `Bool`),
# `): boolean` (TypeScript, Kotlin's `Boolean`, Pascal), `boolean isX(` / `bool Name(` (Java, C#, C,
# C++), `) As Boolean` (VB.NET, any case), `function Empty: Boolean` / `def isEmpty: Boolean` (Pascal,
# Scala: no parameter list), `logical function` (Fortran), `- (BOOL)isX` (Objective-C).
_BOOL_RESULT = re.compile(
    r"(?:->|\)\s*:?)\s*(?:bool|boolean|Bool|Boolean)\b(?!\s*[,)\]])|\b(?:bool|boolean)\s+[A-Za-z_]\w*\s*\("
    r"|(?i:\)\s*as\s+boolean\b|\b(?:function|def)\s+[A-Za-z_][\w.]*\s*:\s*boolean\b|\blogical\s+function\b)"
    r"|^\s*[-+]\s*\(\s*BOOL\s*\)"
)


def returns_bool(signature: str) -> bool:
    """Whether `signature` (a definition's header lines) declares a boolean result."""
    return bool(_BOOL_RESULT.search(signature))


def predicates_first(
    question: str,
    names: Sequence[str | None],
    scores: Sequence[float],
    signatures: Sequence[str] | None = None,
) -> list[float]:
    """`scores` with every predicate's raised by `PREDICATE_BOOST` when `question` asks whether:
    a definition named as one or, with `signatures`, declaring a boolean result."""
    if not asks_yes_no(question):
        return list(scores)
    sigs = signatures if signatures is not None else [""] * len(names)
    return [
        s * PREDICATE_BOOST if is_predicate(name) or returns_bool(sig) else s
        for s, name, sig in zip(scores, names, sigs, strict=True)
    ]


# How many lines at a unit's top may hold its decorators.
STUB_SEARCH_LINES = 8
# A Python `@overload` stub repeats its implementation's signature with narrower types and no
# body. Scored alone it is a dense three lines, ranked (and filled) before the implementation
# that holds the doc and the code, and before other definitions; its implementation answers
# for it: the stub scores 0 and comes with it only as context.
_OVERLOAD_STUB = re.compile(r"\s*@(?:typing\.|t\.)?overload\b")


def _is_stub(lines: Sequence[str], body: Sequence[int]) -> bool:
    return any(_OVERLOAD_STUB.match(lines[i]) for i in body[:STUB_SEARCH_LINES])


def stubs_below_implementation(
    lines: Sequence[str],
    bodies: Sequence[Sequence[int]],
    names: Sequence[str | None],
    scores: Sequence[float],
) -> list[float]:
    """`scores` with every `@overload` stub followed by its implementation (the next unit of that
    name that is no stub) at 0: the implementation is the unit, the stubs only its context."""
    out = list(scores)
    implemented: set[str] = set()  # the names with an implementation below the unit at hand
    # from the bottom up, so each unit is read once (a look ahead from each stub was quadratic
    # in a file of stubs with no implementation)
    for k in range(len(bodies) - 1, -1, -1):
        name = names[k]
        if name is None:
            continue
        if not _is_stub(lines, bodies[k]):
            implemented.add(name)
        elif name in implemented:
            out[k] = 0.0
    return out


# A constructor named `new` (Perl's, Rust's, Ruby's, Lua's and Elixir's convention) says nothing to
# the scorer, `new` being a stop word: its name field holds the question's word for creating
# ("Creates a new priority queue", "Construct a …"), as `__construct`, `init` or `initialize` do.
# VB.NET's constructor is `Sub New`, whose doc is .NET's "Initializes a new instance of the X class".
_CREATING = tuple(
    stem(w) for w in ("create", "construct", "constructor", "instantiate", "initialize", "make", "build")
)


def constructor_hits(name: str | None, query: Mapping[str, float]) -> dict[str, int]:
    """The question's strongest word for creating, as a hit of a definition named `new`."""
    if name is None or name.rsplit(".", 1)[-1].rsplit(":", 1)[-1].lower() != "new":
        return {}
    said = [t for t in _CREATING if t in query]
    return {max(said, key=lambda t: query[t]): 1} if said else {}


# A question may say what calls the definition it is about ("Automatically called by
# next_prediction()", "invoked from within DESTROY", "Used by install_template."): that name is
# the caller's, whose name field then matched the question's rarest word, and the caller won
# over the callee the question describes. The caller's name field counts for nothing; its code
# still counts (it calls the definition meant, which gets credit for that call). All dev sets:
# 102 questions say so, 2 more found, none lost (half the field instead: none found).
_CALLER = re.compile(
    r"\b(?:called|invoked|used)\s+(?:only\s+|automatically\s+|internally\s+)?(?:by|from)\s+(?:within\s+)?"
    r"(?:the\s+)?([`'\"]?)([A-Za-z_][\w:.>-]*\w)(\(\))?",
    re.IGNORECASE,
)
# "Used by default", "called by hand": an idiom, not a caller, unless written as code (`` `default` ``,
# `default()`); a definition named so (Rust's `fn default()`) is often the very one asked about.
_BY_IDIOMS = frozenset({"default", "hand", "design", "convention", "itself", "themselves"})
# How a caller's name is qualified: `Foo::bar`, `$self->bar`, `Foo.bar`, `Foo:bar`.
_QUALIFIER = re.compile(r"::|->|\.|:")


def _last_part(name: str) -> str:
    return _QUALIFIER.split(name)[-1].lower()


def callers_named(question: str, names: Sequence[str | None], name_scores: Sequence[float]) -> list[float]:
    """`name_scores` with the name field of every definition `question` names as its caller
    ("called by X", "used from X()") at 0."""
    callers = {
        _last_part(m.group(2))
        for m in _CALLER.finditer(question)
        if m.group(1) or m.group(3) or m.group(2).lower() not in _BY_IDIOMS
    }
    if not callers:
        return list(name_scores)
    return [
        0.0 if name is not None and _last_part(name) in callers else s
        for s, name in zip(name_scores, names, strict=True)
    ]


# A word written as code in a question: an option or named argument (`-only`), a method call
# (`->does`, `$x.get`, `only()`), a quoted name (`` `get` ``).
# A word before `(` is read from its start (`(?<!\w)`, past leading digits): tried from each of its
# letters, a long word took quadratic time.
_CODE_WORD = re.compile(r"(?:->|::|[`$.]|(?<![\w-])-)([A-Za-z_]\w*)|(?<!\w)[0-9]*+([A-Za-z_]\w*+)(?=\(|`)")


def named_by_code_words(question: str, names: Sequence[str | None]) -> dict[int, str]:
    """Which definitions (by index) are named by a stop word `question` writes as code (`-only`,
    `new()`, `->does`, `` `get` ``), with that word: no term can say such a name, so the name field
    of `sub only` matched nothing in "Returns the value of the -only attribute"."""
    written = ((m.group(1) or m.group(2)).lower() for m in _CODE_WORD.finditer(question))
    coded = {w for w in written if w in STOPWORDS}
    if not coded:
        return {}
    last = ["" if name is None else _last_part(name) for name in names]
    return {k: word for k, word in enumerate(last) if word in coded}


# A question opening with the definition it is about ("The equal method is the primary comparison
# method …", "The new() routine is passed …", POD's way of starting a method's entry) names it
# as plainly as a question can: every definition of that name scores this many times its own.
# All dev sets: 20 questions open so, 2 more found (Perl), none lost (4 no better).
SUBJECT_BOOST = 2.0
_SUBJECT = re.compile(
    r"\W*(?:the|this)\s+[`'\"]?([A-Za-z_][\w:.>-]*?)[`'\"]?(?:\(\))?\s+"
    r"(?:method|subroutine|function|routine|sub|constructor|accessor)\b",
    re.IGNORECASE,
)


def subject_first(question: str, names: Sequence[str | None], scores: Sequence[float]) -> list[float]:
    """`scores` with every definition named as the subject opening `question` raised by
    `SUBJECT_BOOST` ("The equal method …" -> `equal`; "The given function …" names none)."""
    m = _SUBJECT.match(question)
    if m is None:
        return list(scores)
    subject = _last_part(m.group(1))
    return [
        s * SUBJECT_BOOST if name is not None and _last_part(name) == subject else s
        for s, name in zip(scores, names, strict=True)
    ]
