"""Identifier-aware terms: what a line and a question are made of, for lexical scoring.

`store_file_breaks`, `storeFileBreaks` and "store the file's breaks" all give the terms
`store`, `file`, `break`; compound identifiers also give themselves whole (`store_file_breaks`)
so an exact identifier in the question outweighs its parts.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from mcp_pruner_server.pruning.wordlists import ABBREVIATION_PAIRS, PHRASE_SYNONYMS, STOPWORDS, SYNONYM_GROUPS

__all__ = [
    "ABBREVIATIONS",
    "STOPWORDS",
    "SYNONYMS",
    "identifiers",
    "line_terms",
    "phrase_synonyms",
    "stem",
    "terms",
    "word_parts",
]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# An acronym's plural (`CPUs`, `PIDs`, `URLs`) is the acronym, not `CP` + `Us`; so is its verb
# (`HUPing`, `NULLed`), not `HU` + `Ping`.
_ACRONYM_PLURAL = re.compile(r"([A-Z]{2,})(?:s|ing|ed)(?![a-z])")
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# A word of any script (`größe`, `σ`, `Δt`, `résumé`, Cyrillic, Greek): a letter, then letters,
# digits and `_`. Only a line with a non-ASCII character is read with it; ASCII keeps `_WORD`.
_UNICODE_WORD = re.compile(r"[^\W\d]\w*|[0-9]+")
# The combining diacritical marks (accents, cedillas, umlauts, tonos, breves): what decomposition
# splits off a Latin, Greek or Cyrillic letter. Not every combining mark: an Indic script's vowel
# signs and virama are part of its words' spelling.
_DIACRITICS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
# Latin letters that Unicode does not decompose into a base letter and an accent.
_UNDECOMPOSED_LATIN = dict(
    zip("ßẞæÆœŒøØđĐłŁı", ("ss", "SS", "ae", "AE", "oe", "OE", "o", "O", "d", "D", "l", "L", "i"), strict=True)
)
# (a regex finds them faster than `str.translate` looks up every character of a line)
_UNDECOMPOSED_LATIN_LETTER = re.compile(f"[{''.join(_UNDECOMPOSED_LATIN)}]")

# Suffixes stripped by the light stemmer, longest first; a stem keeps at least 3 letters.
# No "ly": adverbs hardly matter in code, and it cut `apply`, `reply`, `family`, `assembly`.
_SUFFIXES = ("ations", "ation", "ings", "ing", "edly", "ies", "ers", "er", "ed", "es", "s")
_MIN_STEM = 3
# Adverbs whose adjective code names things with (`currently` → `current`, `recursively`,
# `immediately`, `globally`, `exactly`); not any "ly" (`apply`, `reply`, `family`, `assembly`).
_ADVERB_ENDINGS = ("ntly", "ely", "ously", "ally", "ctly")
_MIN_ADVERB_BASE = 5
# British spellings of the `-ize` verbs code often names things with (`initialise`, `serialised`,
# `normalisation`, `optimising`, `synchronise`, `tokenise`, `sanitise`): one stem with the American
# ones, so "initialise" meets `initialize` and, through it, `init`. Only these endings: `promise`,
# `surprise`, `exercise`, `otherwise` are no such verbs.
_BRITISH_IZE = re.compile(r"(?<=[a-z]{2})(al|im|an|en|on|it)is(e|es|ed|ing|ings|ation|ations|er|ers)$")
# Entries of the per-process caches of stems, word terms and line terms: a code base's
# vocabulary and its repeated lines (`return None`, `}`) fit, a stream of unique log lines
# cannot grow them without bound.
WORD_CACHE_ENTRIES = 65536
LINE_CACHE_ENTRIES = 16384


@lru_cache(maxsize=WORD_CACHE_ENTRIES)
def stem(word: str) -> str:
    """A light English stemmer: `breakpoints` -> `breakpoint`, `saved`/`save`/`saving` -> `sav`,
    `entry`/`entries` -> `entri`, `optional` -> `option`."""
    word = _BRITISH_IZE.sub(r"\1iz\2", word)
    if word.endswith(_ADVERB_ENDINGS) and len(word) - 2 >= _MIN_ADVERB_BASE:
        word = word[:-2]  # "currently"/"recursively" are about what is current, recursive
    if word.endswith(("ional", "ionals")):
        word = word[: word.rindex("al")]  # "optional"/"conditional" are about an option, a condition
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


# The stems a stop word's inflection shares with a stop word (`returning` with `return`, `getter`
# with `get`): those words are stop words too. Not every stem that is a stop word: `theme` → `them`,
# `note` → `not`, `owner` → `own`, `passed` → `pas` (French) are words of their own, which were
# dropped from questions and code alike ("Returns the Perl::Critic::Theme object" lost `theme`).
_STOP_STEMS = frozenset(s for w in STOPWORDS if (s := stem(w)) != w and s in STOPWORDS)


# Longer words and lines are tokenised without the caches below: the caches live as long as
# the server, and a minified bundle's megabyte line (or identifier) would stay in them.
MAX_CACHED_WORD_CHARS = 200
MAX_CACHED_LINE_CHARS = 2000


def _stem(part: str) -> str:
    return stem(part) if len(part) <= MAX_CACHED_WORD_CHARS else stem.__wrapped__(part)


def fold_accents(text: str) -> str:
    """`text` without its accents: "Iterações" -> "Iteracoes", "Größe" -> "Grosse", "naïve" ->
    "naive". A question is often typed without them ("iteracoes") and code keeps them out of its
    identifiers while its comments use them: both sides folded alike meet."""
    text = _UNDECOMPOSED_LATIN_LETTER.sub(lambda m: _UNDECOMPOSED_LATIN[m[0]], text)
    return _DIACRITICS.sub("", unicodedata.normalize("NFKD", text))


def _cased_parts(word: str) -> list[str]:
    """`_PART` for a word of any script, by the letters' own case: `berechneGröße` -> `berechne`,
    `Größe`; `ΔT` -> `ΔT`; an uncased script's run (CJK, Arabic) is one part."""
    parts: list[str] = []
    start = 0
    for k in range(1, len(word) + 1):
        if k < len(word) and not _part_ends(word, k):
            continue
        part = word[start:k].strip("_")
        if part:
            parts.append(part)
        start = k
    return parts


def _part_ends(word: str, k: int) -> bool:
    """Whether a part of `word` ends before `word[k]`: at `_`, between digits and letters, before an
    upper-case letter after a lower-case one, and before the last capital of a run that starts a
    lower-case word (`HTTPServer`: `HTTP`, `Server`)."""
    prev, char = word[k - 1], word[k]
    if char == "_" or prev == "_" or prev.isdigit() != char.isdigit():
        return True
    if char.isupper():
        return not prev.isupper() or (k + 1 < len(word) and word[k + 1].islower())
    return prev.isalpha() and char.isalpha() and _is_cased(prev) != _is_cased(char)


def _is_cased(char: str) -> bool:
    return char.isupper() or char.islower()


def word_parts(text: str) -> list[str]:
    """The parts of every word of `text` as `terms` cuts them, in their case and unstemmed
    (`storeFileBreaks`, "Número Máximo" -> `store`, `File`, `Breaks`, `Numero`, `Maximo`)."""
    if text.isascii() or (text := fold_accents(text)).isascii():
        return _PART.findall(text)
    return [part for word in _UNICODE_WORD.findall(text) for part in _cased_parts(word)]


def _word_terms(word: str) -> tuple[str, ...]:
    unacronymed = _ACRONYM_PLURAL.sub(r"\1", word)
    cased = _PART.findall(unacronymed) if word.isascii() else _cased_parts(unacronymed)
    parts = [p.lower() for p in cased]
    out = [s for p in parts if len(p) > 1 and p not in STOPWORDS and (s := _stem(p)) not in _STOP_STEMS]
    for first, second in itertools.pairwise(cased):
        if len(first) == 1 and first.isupper() and second[:1].isupper() and len(second) > 1:
            out.append(_stem((first + second).lower()))  # `ETag`, `XPath`: also `etag`, `xpath`
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
    words = _WORD if text.isascii() or (text := fold_accents(text)).isascii() else _UNICODE_WORD
    for word in words.findall(text):
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


def _synonym_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        stems = {stem(w) for w in group.split()}
        for s in stems:
            table.setdefault(s, set()).update(stems - {s})
    return {k: tuple(sorted(v)) for k, v in table.items()}


SYNONYMS = _synonym_table()


def _abbreviation_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for pair in ABBREVIATION_PAIRS:
        short, *long = pair.split()
        for word in long:
            a, b = stem(short), stem(word)
            if a != b:
                table.setdefault(a, set()).add(b)
                table.setdefault(b, set()).add(a)
    return {k: tuple(sorted(v)) for k, v in table.items()}


ABBREVIATIONS = _abbreviation_table()


def _phrase_table() -> list[tuple[re.Pattern[str], tuple[str, ...]]]:
    out = []
    for phrase, words in PHRASE_SYNONYMS:
        first, *rest = phrase.split()
        # the first word inflected too: "removes all", "erased all"
        pattern = re.compile(rf"\b{first}\w*[\s-]+" + r"[\s-]+".join(rest) + r"\b", re.IGNORECASE)
        out.append((pattern, tuple(stem(w) for w in words.split())))
    return out


_PHRASES = _phrase_table()


def phrase_synonyms(text: str) -> list[str]:
    """The terms code names the word lists' phrases in `text` by ("removes all" -> `clear`)."""
    return [word for pattern, words in _PHRASES if pattern.search(text) for word in words]
