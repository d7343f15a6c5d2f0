"""Identifier-aware terms: what a line and a question are made of, for lexical scoring.

`store_file_breaks`, `storeFileBreaks` and "store the file's breaks" all give the terms
`store`, `file`, `break`; compound identifiers also give themselves whole (`store_file_breaks`)
so an exact identifier in the question outweighs its parts.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# An acronym's plural (`CPUs`, `PIDs`, `URLs`) is the acronym, not `CP` + `Us`.
_ACRONYM_PLURAL = re.compile(r"([A-Z]{2,})s(?![a-z])")
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")

# Words that carry no focus in a question about code or logs (English + the French of the
# seeds, minus the French words that are English or code words too: comment, plus, est, par).
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "and",
        "or",
        "not",
        "no",
        "nor",
        "but",
        "if",
        "then",
        "else",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "done",
        "doing",
        "has",
        "have",
        "had",
        "having",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "it's",
        "they",
        "them",
        "their",
        "there",
        "here",
        "what",
        "where",
        "when",
        "why",
        "how",
        "which",
        "who",
        "whom",
        "whose",
        "as",
        "so",
        "such",
        "than",
        "too",
        "very",
        "can",
        "could",
        "should",
        "would",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "all",
        "any",
        "each",
        "every",
        "some",
        "other",
        "own",
        "same",
        "about",
        "above",
        "after",
        "again",
        "against",
        "before",
        "below",
        "between",
        "both",
        "during",
        "further",
        "once",
        "only",
        "out",
        "over",
        "under",
        "until",
        "up",
        "down",
        "off",
        "just",
        "also",
        "get",
        "gets",
        "got",
        "use",
        "uses",
        "used",
        "using",
        "via",
        "per",
        "return",
        "returns",
        "returned",
        "value",
        "values",
        "given",
        "whether",
        "one",
        "two",
        "new",
        "make",
        "makes",
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "du",
        "de",
        "et",
        "ou",
        "en",
        "au",
        "aux",
        "ce",
        "cet",
        "cette",
        "ces",
        "sont",
        "pour",
        "sur",
        "dans",
        "avec",
        "sans",
        "que",
        "qui",
        "quoi",
        "pourquoi",
        "quel",
        "quelle",
        "quels",
        "quelles",
        "ne",
        "pas",
    }
)

# Suffixes stripped by the light stemmer, longest first; a stem keeps at least 3 letters.
# No "ly": adverbs hardly matter in code, and it cut `apply`, `reply`, `family`, `assembly`.
_SUFFIXES = ("ations", "ation", "ings", "ing", "edly", "ies", "ers", "er", "ed", "es", "s")
_MIN_STEM = 3
# Entries of the per-process caches of stems, word terms and line terms: a code base's
# vocabulary and its repeated lines (`return None`, `}`) fit, a stream of unique log lines
# cannot grow them without bound.
WORD_CACHE_ENTRIES = 65536
LINE_CACHE_ENTRIES = 16384


@lru_cache(maxsize=WORD_CACHE_ENTRIES)
def stem(word: str) -> str:
    """A light English stemmer: `breakpoints` -> `breakpoint`, `saved`/`save`/`saving` -> `sav`,
    `entry`/`entries` -> `entri`."""
    base = word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue  # "process", "status", "analysis" are not plurals
            base = word[: -len(suffix)] + ("i" if suffix == "ies" else "")
            break
    if len(base) > _MIN_STEM and base[-1] == "y" and base[-2] not in "aeiouy":
        # "retry"/"retries"/"retried" and "cookie"/"cookies" meet on "retri", "cooki" (as Porter)
        base = base[:-1] + "i"
    if len(base) > _MIN_STEM and base.endswith("e"):
        base = base[:-1]
    # "stopped"/"stop", "cancelled"/"cancel", "called"/"call", "passes"/"pass": one final consonant
    if len(base) > _MIN_STEM and base[-1] == base[-2] and base[-1] not in "aeiou":
        base = base[:-1]
    return base


# Longer words and lines are tokenised without the caches below: the caches live as long as
# the server, and a minified bundle's megabyte line (or identifier) would stay in them.
MAX_CACHED_WORD_CHARS = 200
MAX_CACHED_LINE_CHARS = 2000


def _stem(part: str) -> str:
    return stem(part) if len(part) <= MAX_CACHED_WORD_CHARS else stem.__wrapped__(part)


def _word_terms(word: str) -> tuple[str, ...]:
    parts = [p.lower() for p in _PART.findall(_ACRONYM_PLURAL.sub(r"\1", word))]
    out = [s for p in parts if len(p) > 1 and p not in STOPWORDS and (s := _stem(p)) not in STOPWORDS]
    if len(parts) > 1:
        # the whole compound identifier, one spelling for snake and camel case, for exact matches
        out.append("_".join(parts))
        if len(parts) > 2 and parts[0] == "k" and word[1:2].isupper():
            out.append("_".join(parts[1:]))  # `kOnClosed`, a constant's prefix: also `on_closed`
    return tuple(out)


_cached_word_terms = lru_cache(maxsize=WORD_CACHE_ENTRIES)(_word_terms)


def terms(text: str) -> list[str]:
    """The stemmed, lower-cased terms of `text`, compound identifiers split and also kept whole."""
    return list(line_terms(text))


def line_terms(text: str) -> tuple[str, ...]:
    """`terms` of one line, cached: code repeats itself (`return None`, `else:`, `}`)."""
    if len(text) > MAX_CACHED_LINE_CHARS:
        return _line_terms(text)
    return _cached_line_terms(text)


def _line_terms(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(_cached_word_terms(word) if len(word) <= MAX_CACHED_WORD_CHARS else _word_terms(word))
    return tuple(out)


_cached_line_terms = lru_cache(maxsize=LINE_CACHE_ENTRIES)(_line_terms)


def identifiers(text: str) -> set[str]:
    """The compound identifiers and dotted/slashed paths written in `text` (lower-cased).

    These are the "exact" signals: a question naming `test_config_port_type` or
    `pyshell.py` points at the lines that contain that very string.
    """
    found: set[str] = set()
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_./:-]*[A-Za-z0-9_]", text):
        if "_" in word.strip("_") or "." in word or "/" in word or re.search(r"[a-z][A-Z]", word):
            found.add(word.lower())
    return found


# Programming verbs and nouns that name the same act: a question says "remove", the code
# says `strip` or `discard`. General vocabulary, not tied to any code base.
_SYNONYM_GROUPS = (
    "find search lookup locate discover fetch retrieve query",
    "remove delete del strip drop discard pop erase purge unset",
    "clear reset empty flush",
    "create make build construct constructor init initialize setup instantiate factory",
    "handle process serve dispatch handler",
    "yield iter iterate iterator generate generator",
    "transform convert translate",
    "check validate verify ensure",
    "read load parse decode deserialize unpack receive recv",
    "write save store dump serialize encode pack persist",
    "start run launch spawn execute exec invoke",
    "stop close finish terminate shutdown kill exit quit",
    "copy clone duplicate",
    "compare cmp equal less greater",
    "add append insert push register attach",
    "count len length size total",
    "show display print render repr",
    "error exception fail failure raise err",
    "wait sleep poll await",
    "name label title identifier identification",
)


def _synonym_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for group in _SYNONYM_GROUPS:
        stems = {stem(w) for w in group.split()}
        for s in stems:
            table.setdefault(s, set()).update(stems - {s})
    return {k: tuple(sorted(v)) for k, v in table.items()}


SYNONYMS = _synonym_table()


# The short forms code writes for common words (`cfg`, `addr`, `dict`): a question spells
# them out, the code does not. General programming vocabulary, not tied to any code base
# (measured: +0.7 / +1.6 points of held-out recall on two groups of sets, dev unchanged).
_ABBREVIATIONS = (
    "dict dictionary",
    "config configuration",
    "cfg config configuration",
    "arg argument",
    "args arguments",
    "param parameter",
    "params parameters",
    "attr attribute",
    "attrs attributes",
    "func function",
    "fn function",
    "obj object",
    "info information",
    "env environment",
    "dir directory",
    "addr address",
    "conn connection",
    "proc process",
    "msg message",
    "ctx context",
    "num number",
    "str string",
    "exc exception",
    "desc description",
    "freq frequency",
    "max maximum",
    "min minimum",
    "ref reference",
    "src source",
    "dst destination",
    "tmp temporary",
    "temp temporary",
    "buf buffer",
    "req request",
    "resp response",
    "pos position",
    "idx index",
    "cb callback",
    "opt option",
    "opts options",
    "prev previous",
    "cur current",
    "curr current",
    "len length",
    "calc calculate",
    "init initialize",
    "spec specification",
    "auth authentication",
    "repr representation",
    "fmt format",
    "seq sequence",
    "elem element",
    "lang language",
    "col column",
    "doc document",
    "pkg package",
    "lib library",
    "db database",
    "sep separator",
    "ts timestamp",
    "sig signature",
    "sync synchronize",
    "async asynchronous",
    "util utility",
    "impl implementation",
    "alloc allocate",
    "ptr pointer",
    "var variable",
    "gen generate",
    "del delete",
    "rm remove",
    "mk make",
    "eval evaluate",
    "exe executable",
    "cmd command",
    "ext extension",
    "mod module",
    "pid process",
    "fd descriptor",
    "img image",
    "win window",
    "btn button",
)


def _abbreviation_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for pair in _ABBREVIATIONS:
        short, *long = pair.split()
        for word in long:
            a, b = stem(short), stem(word)
            if a != b:
                table.setdefault(a, set()).add(b)
                table.setdefault(b, set()).add(a)
    return {k: tuple(sorted(v)) for k, v in table.items()}


ABBREVIATIONS = _abbreviation_table()
