"""Which programming language a text is in: from its file's extension, a shebang, or its lines.

The extensions, file names and interpreters are each language's record's (`pruning/languages/`).

Without a path (`prune_text`, `jeeves prune -`), the first lines are looked at for what only one
language writes at the start of a line (`package main` + `func`, `use std::` / `fn`,
`#include`, `import x.y.Z;`, R's `f <- function(`, MATLAB's `function [a, b] = f(` …; the table is
`language_signs.py`, with the lines several languages write alike, as `end`, which count for the
one the others name). An unclear text gives None and the engine finds units with its
language-independent heuristics; a wrong guess costs little, as a parse with many errors is
not trusted (`syntax.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from mcp_pruner_server.pruning.languages.registry import (
    BY_EXTENSION,
    BY_FILE_NAME,
    BY_INTERPRETER,
    CLAIMANTS,
    LANGUAGES,
)
from mcp_pruner_server.pruning.structure.language_signs import NARROWER, SHARED, SHARED_PARTS, SIGNS

# `#!/usr/bin/env -S python3 -u`, `#!/usr/local/bin/python3.11`: the interpreter's base name.
_SHEBANG = re.compile(r"^#!\s*\S*?/?(?:env\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*?)(?:[\d.]+)?(?:\s|$)")


# A `%` comment is MATLAB's and Erlang's (and Prolog's): it counts only for a language whose record
# says so (`percent_comment_signs`), once its own signs are there.
_PERCENT_COMMENT = re.compile(r"^\s*%(?:[%\s]|$)")
_PERCENT_COMMENTERS = tuple(lang.name for lang in LANGUAGES.values() if lang.percent_comment_signs)
# (A language, another whose lines it writes too): C++ and C, TypeScript and JavaScript.
_INCLUDING = tuple(
    (lang.name, lang.includes_signs_of) for lang in LANGUAGES.values() if lang.includes_signs_of
)
# A first line -> the language it says (`<?php`).
_FIRST_LINES = {lang.first_line: lang.name for lang in LANGUAGES.values() if lang.first_line}
# MATLAB's help follows its signature: a `%` line right under `function f(x)` is a sign of it (a
# function without outputs, which Lua and Julia write alike, is none alone; their comments are not `%`).
_PLAIN_FUNCTION = re.compile(r"\s*function\s+[\w.]+\s*(?:\([^()]*\))?\s*$")
# A console's prompt (`PS C:\src> Get-Item x`, `PS> …`) echoes a command typed in a session, not a line of
# a script: a transcript is no code.
_PROMPT = re.compile(r"\s*PS(?: [A-Za-z]:[^>]*)?> ")
# Lines looked at, and how many signs one language needs, ahead of any other, to be named.
SNIFF_LINES = 200
MIN_SIGNS = 3
# Only a line's head is looked at: a minified line's megabyte says nothing more.
SNIFF_LINE_CHARS = 300


def guess_language(lines: Sequence[str]) -> str | None:
    """The language whose signs the first `SNIFF_LINES` lines show most, if clearly so."""
    counts = dict.fromkeys([lang for lang, _, _ in SIGNS], 0)
    shared = dict.fromkeys(SHARED_PARTS, 0)
    percent_comments = 0
    head = [line[:SNIFF_LINE_CHARS] for line in lines[:SNIFF_LINES]]
    for i, line in enumerate(head):
        if not line or line.isspace():
            continue  # no sign is blank
        if line.startswith(("PS", " ")) and _PROMPT.match(line):
            continue
        if i and line.lstrip().startswith("%") and _PLAIN_FUNCTION.match(head[i - 1]):
            for lang in _PERCENT_COMMENTERS:
                counts[lang] += 1  # its help's first line, `%NAME what it does`
        if _PERCENT_COMMENT.match(line):
            percent_comments += 1
            continue
        matched = {
            lang
            for lang, head, anywhere in SIGNS
            if (head is not None and head.match(line)) or (anywhere is not None and anywhere.search(line))
        }
        alike = SHARED.match(line)
        # F#'s `let inline f x =` is its own sign, not a `let` OCaml writes alike
        if (
            alike is not None
            and alike.lastgroup is not None
            and matched.isdisjoint(SHARED_PARTS[alike.lastgroup][1])
        ):
            shared[alike.lastgroup] += 1
            continue  # nor a sign of another language (Python's shape of `import a.b.C`)
        for lang in matched:
            if not NARROWER.get(lang, frozenset()) & matched:
                counts[lang] += 1
    for lang in _PERCENT_COMMENTERS:
        if counts[lang]:
            counts[lang] += percent_comments
    own = dict(counts)
    for kind, (_, langs, lone_owner) in SHARED_PARTS.items():
        leader = max(langs, key=lambda lang: own[lang])
        owner = leader if own[leader] else lone_owner
        if owner is not None:
            counts[owner] += shared[kind]
    for lang, other in _INCLUDING:  # (no language both includes and is included)
        if counts[lang] and counts[other]:
            counts[lang] += counts[other]  # C++ includes and declares like C
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < MIN_SIGNS or (top < 2 * second and all(lang != best for lang, _ in _INCLUDING)):
        return None
    return best


def language_of(path: str | None, lines: Sequence[str] = ("",)) -> str | None:
    """The language of the file at `path` holding `lines`, or None if unsure."""
    if path:
        name = PurePosixPath(path.lower())
        claimant = CLAIMANTS.get(name.suffix)
        if claimant is not None and claimant.recognises is not None and claimant.recognises(lines):
            return claimant.name  # a C++ header, a MATLAB `.m`, a Pascal `.pp`
        found = BY_EXTENSION.get(name.suffix) or BY_FILE_NAME.get(name.name)
        if found is not None:
            return found.name
    for first, lang in _FIRST_LINES.items():
        if lines and lines[0].startswith(first):
            return lang  # as sure as a shebang
    m = _SHEBANG.match(lines[0] if lines else "")
    if m is not None:
        interpreter = BY_INTERPRETER.get(m.group(1).rsplit("/", 1)[-1])
        return None if interpreter is None else interpreter.name
    return guess_language(lines)
