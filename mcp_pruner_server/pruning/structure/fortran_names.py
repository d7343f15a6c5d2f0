"""What a Fortran procedure's name says beyond its terms: its kind and rank, its words cut short.

A Fortran generic (`interface get_value`) is implemented by one specific procedure per type,
kind and rank, named by suffixes the language's conventions share: `get_value_float_dp`,
`get_value_integer_i8`, `write_field_2d`, `linterp_2D`, `add_r4`, stdlib's `_rsp` / `_int64`.
Their docs say the same in words ("as double precision float", "as eight byte integer",
"for 2D data"), words no term of the name matches: `dp`, `i8` and `2d` are too short to be terms.
Documented alike, the specifics differ in these words alone, so the specific a question spells
out is found by them: the question terms that spell the kind or rank its name's suffix stands for
(the words, and the phrases holding them: "doubl", "double_precision", "2_d") are hits of its name
field (`kind_hits`). Its name's other parts abbreviate words (`abbreviated_hits`).

Both are asked once per procedure with the question's words read once per prune
(`question_words`: its phrase terms keep them as written), which the caller holds for that prune
only (`language_hooks.LanguageHooks.prepare`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from mcp_pruner_server.pruning.terms import terms

# A kind suffix (a whole `_`-separated part of the name, in any case) and the kind it names.
# `sp`/`dp`/`qp` and `r4`/`r8`/`r16` are the community's reals, `real32`/`int64` … the intrinsic
# module's names (`iso_fortran_env`), `rsp`/`cdp` stdlib's, `jprm`/`jprd` the IFS's (and ecRad's).
_KIND_SUFFIXES = {
    **dict.fromkeys(("sp", "r4", "real32", "rsp", "csp", "c4", "jprm"), "real4"),
    **dict.fromkeys(("dp", "r8", "real64", "rdp", "cdp", "c8", "jprd"), "real8"),
    **dict.fromkeys(("qp", "r16", "real128", "rqp", "cqp", "c16", "xdp"), "real16"),
    **dict.fromkeys(("i1", "int8", "iint8"), "int1"),
    **dict.fromkeys(("i2", "int16", "iint16"), "int2"),
    **dict.fromkeys(("i4", "int32", "iint32"), "int4"),
    **dict.fromkeys(("i8", "int64", "iint64"), "int8"),
}
# A rank suffix: `_2d`, `_2D`, `1Dreal` in `exchange1Dreal` (a digit after a letter or `_`, then
# `d` ending the part, or a capital `D`), up to Fortran 2008's fifteen dimensions; or a capital `R`
# and the rank after a type's name (`getNextToken_realR1`, `intR2`: `_r4` and `_r8` are kinds).
_RANK_IN_NAME = re.compile(
    r"(?:^|(?<=[A-Za-z_]))(1[0-5]|[1-9])(?:d(?![a-z])|D)|(?<=[a-z])R(1[0-5]|[1-9])(?![0-9a-z])"
)
_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "sixteen": 16,
}  # fmt: skip
_NUMBER = r"(1[0-6]|[1-9]|one|two|three|four|five|six|seven|eight|sixteen)"
# How a question spells a kind: "double precision", "single-precision real", "real(8)",
# "real*4", "eight byte integer", "64-bit integer", "integer(kind=8)", "int64".
_PRECISION = re.compile(r"\b(single|double|quad(?:ruple)?)[- ]precision\b", re.IGNORECASE)
_SIZED = re.compile(
    rf"\b(?:{_NUMBER}[- ]?bytes?|(8|16|32|64|128)[- ]?bits?)\s+(integer|int|real|float(?:ing[- ]point)?)\b",
    re.IGNORECASE,
)
_DECLARED = re.compile(r"\b(integer|real)\s*(?:\*\s*|\(\s*(?:kind\s*=\s*)?)(1|2|4|8|16)\b", re.IGNORECASE)
_INTRINSIC = re.compile(r"\b(int|real)(8|16|32|64|128)\b", re.IGNORECASE)
_SPELLING = re.compile(r"[\s*()=-]+")
_PRECISION_BYTES = {"single": 4, "double": 8, "quad": 16, "quadruple": 16}
# How a question spells a rank: "2D", "2-d arrays", "two-dimensional", "rank-2", "rank one".
_RANK_IN_QUESTION = re.compile(
    rf"\b(?:(1[0-5]|[1-9])[- ]?d\b|{_NUMBER}[- ]dimensional\b|rank[- ]{_NUMBER}\b)", re.IGNORECASE
)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def question_kinds(question: str) -> dict[str, set[tuple[str, ...]]]:
    """The kinds and ranks `question` spells out (`real8` of "double precision", `rank2` of "2D"),
    each with the words of each spelling."""
    found: dict[str, set[tuple[str, ...]]] = {}

    def spelled(kind: str, m: re.Match[str]) -> None:
        found.setdefault(kind, set()).add(tuple(w for w in _SPELLING.split(m.group(0).lower()) if w))

    for m in _PRECISION.finditer(question):
        spelled(f"real{_PRECISION_BYTES[m.group(1).lower()]}", m)
    for m in _SIZED.finditer(question):
        size = _number(m.group(1)) if m.group(1) else int(m.group(2)) // 8
        spelled(f"{'int' if m.group(3).lower().startswith('int') else 'real'}{size}", m)
    for m in _DECLARED.finditer(question):
        spelled(f"{m.group(1).lower()[:4].replace('inte', 'int')}{m.group(2)}", m)
    for m in _INTRINSIC.finditer(question):
        spelled(f"{m.group(1).lower()}{int(m.group(2)) // 8}", m)
    for m in _RANK_IN_QUESTION.finditer(question):
        spelled(f"rank{_number(next(g for g in m.groups() if g is not None))}", m)
    return found


def name_kinds(name: str) -> set[str]:
    """The kinds and ranks the suffixes of a procedure's name stand for (`real8` of `get_dp`)."""
    found = {_KIND_SUFFIXES[part.lower()] for part in name.split("_") if part.lower() in _KIND_SUFFIXES}
    found.update(f"rank{m.group(1) or m.group(2)}" for m in _RANK_IN_NAME.finditer(name))
    return found


def kind_hits(name: str | None, words: QuestionWords) -> dict[str, int]:
    """The question terms that spell a kind or rank the suffixes of `name` stand for ("doubl",
    "precision", "double_precision" of `get_value_dp` for "… as double precision float"), as hits
    of its name field."""
    if name is None:
        return {}
    asked = words.kinds
    return {term: 1 for kind in name_kinds(name) for term in asked.get(kind, ())}


# Fortran's procedure names cut their words short, often by two letters only (`vect` for vector,
# `sqr` for square, `occ` for occupation, `coef`, `interp`, `calc`), or write them without their
# vowels (`cmp` for compute, `wts` for weights, `nbr`): a part of a name at least
# `MIN_ABBREVIATION` long that starts a question word at least `MIN_CUT` letters longer names it,
# and so does one with no vowel after its first letter whose letters the word holds in order.
# MATLAB's names, cut by three letters or more, have their own (`matlab_blocks.abbreviated_hits`).
MIN_ABBREVIATION = 3
MIN_CUT = 2
_VOWELS = frozenset("aeiouy")
_NAME_PARTS = re.compile(r"[_0-9]+|(?<=[a-z])(?=[A-Z])")
_WORD = re.compile(r"[a-z]+")
# A derived type's opening (`type, extends(grid) :: rot_equid_grid`, `type :: t`), not a function
# returning one (`type(grid) function make(…)`): the words its name abbreviates are its
# procedures' subject, said by the question about any of them, and no sign of the one meant.
_TYPE_OPENING = re.compile(r"\s*type\s*(?:,|::|\s+[A-Za-z])", re.IGNORECASE)


def abbreviated_hits(name: str | None, opening: str, words: QuestionWords) -> dict[str, int]:
    """The question terms a part of a procedure's `name` abbreviates ("vector" of `…_VECT_ROT`,
    "weight" of `cmp_time_wts`), as hits of its name field; none for a derived type (`opening` is
    its first line)."""
    if name is None or _TYPE_OPENING.match(opening):
        return {}
    query = words.query
    found: dict[str, int] = {}
    for part in terms(name):
        if "_" in part or len(part) < MIN_ABBREVIATION or part in query:
            continue
        for said, word in words.by_initial.get(part[0], ()):
            if len(word) >= len(part) + MIN_CUT and word.startswith(part):
                found[said] = 1
    for part in map(str.lower, _NAME_PARTS.split(name)):
        if len(part) < MIN_ABBREVIATION or part in query:
            continue
        if len(part) >= 2 * MIN_ABBREVIATION:
            found.update(_glued_hits(part, words))
        if _VOWELS & set(part[1:]):
            continue
        for said, word in words.by_initial.get(part[0], ()):
            if _skeleton_of(part, word):
                found[said] = 1
    return found


def _glued_hits(part: str, words: QuestionWords) -> dict[str, int]:
    """The question terms a part of a name glued of two words names (`getelm`: "gets element",
    `addlocal`: "add a local"): its head is a word the question writes (a stop word too: `get`,
    `add`, or the word without its `s`), its rest is, starts or abbreviates another."""
    found: dict[str, int] = {}
    for cut in range(MIN_ABBREVIATION, len(part) - MIN_ABBREVIATION + 1):
        head, rest = part[:cut], part[cut:]
        if head not in words.written and head + "s" not in words.written:
            continue
        vowelless = not _VOWELS & set(rest[1:])
        for said, word in words.by_initial.get(rest[0], ()):
            cut_short = word.startswith(rest) and len(word) >= len(rest) + MIN_CUT
            if word == rest or cut_short or (vowelless and _skeleton_of(rest, word)):
                found[said] = 1
    return found


@dataclass(frozen=True)
class QuestionWords:
    """What the question's terms say, read once per prune: a file has hundreds of procedures,
    and its words looked up again for each one cost tens of milliseconds."""

    # the question's terms and their weights
    query: Mapping[str, float]
    # first letter -> (question term of full weight, a word of the question it stems from or the
    # term itself): an abbreviation keeps its word's first letter
    by_initial: Mapping[str, tuple[tuple[str, str], ...]]
    # kind or rank -> the question terms that spell it
    kinds: Mapping[str, frozenset[str]]
    # the question's words as written, in lower case, stop words too
    written: frozenset[str] = frozenset()


def question_words(query: Mapping[str, float]) -> QuestionWords:
    """What the terms of `query` say of the words a procedure's name may abbreviate or spell."""
    # the question's words as written, in order, are the parts of its phrase terms (`as_double`)
    text = " . ".join(q.replace("_", " ") for q in query if "_" in q)
    full = {q for q, w in query.items() if w >= 1.0 and "_" not in q}
    words = {(q, q) for q in full}  # a stem starts the words it stems from, as a name's part may
    for word in set(_WORD.findall(text)):
        said = next((t for t in terms(word) if t in full), None)
        if said is not None:
            words.add((said, word))
    by_initial: dict[str, list[tuple[str, str]]] = {}
    for said, word in sorted(words):
        by_initial.setdefault(word[0], []).append((said, word))
    phrases = [f"_{q}_" for q in query if "_" in q]
    kinds = {
        kind: frozenset(
            [t for words in spellings for w in words for t in [w, *terms(w)] if t in query]
            + [p[1:-1] for words in spellings for p in phrases if f"_{'_'.join(words)}_" in p]
        )
        for kind, spellings in question_kinds(text).items()
    }
    return QuestionWords(
        query,
        {k: tuple(v) for k, v in by_initial.items()},
        {k: v for k, v in kinds.items() if v},
        frozenset(_WORD.findall(text)),
    )


def _skeleton_of(part: str, word: str) -> bool:
    """Whether `word` holds the letters of `part` in order, from its first (`wts` of weights)."""
    if part[0] != word[0] or len(word) < len(part) + MIN_CUT:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in part[1:])
