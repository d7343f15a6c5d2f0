"""A number glued to a word of a Fortran procedure's name, as the question says it.

A family of procedures numbered alike (`gf_unpack5`, `gf_unpack6`, `gf_unpack7`; `read_sect3`,
`grib1`) is documented alike ("Unpack Section 5 …", "Unpack Section 6 …"), and a question about one
meets the docs of all; its number is what tells them apart. The question says the number after the
word the name glues it to, or after one word more ("unpack section 6" of `unpack6`, "grib1" of
`grib1`, "section 3" of `sect3`): those phrase terms of the question are hits of the procedure's
name field. Its words alone do not count: the number is all the twins differ by, and a number the
question says after another word ("starting at octet 6") is no sign of the sixth one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# A name's part ending in a number after its word: `unpack6`, `sect3`, `grib1` (`getgb2p` no: the
# number is inside).
_NUMBERED_PART = re.compile(r"([a-z]+)([0-9]+)$")
# The shortest word of a name that starts the question's word it cuts short (`sect` of "section").
MIN_CUT_WORD = 3
# A question phrase of a word and a number, or of a word, one more word and a number
# (`grib_1`, `unpack_section_6`): its first word and its number.
_NUMBERED_PHRASE = re.compile(r"([a-z]+)(?:_[a-z]+)?_([0-9]+)")

# (first word of the phrase, its number) -> the question's phrase terms that say them
NumberedPhrases = Mapping[tuple[str, str], tuple[str, ...]]


def numbered_phrases(query: Mapping[str, float]) -> NumberedPhrases:
    """The question's phrase terms that end in a number after one or two words, by the first word
    and the number (read once per prune)."""
    found: dict[tuple[str, str], list[str]] = {}
    for term in query:
        if m := _NUMBERED_PHRASE.fullmatch(term):
            found.setdefault((m.group(1), m.group(2)), []).append(term)
    return {key: tuple(terms) for key, terms in found.items()}


def numbered_hits(name: str | None, phrases: NumberedPhrases) -> dict[str, int]:
    """The question's phrase terms that say a number of `name` after the word it is glued to
    ("unpack_section_6" of `gf_unpack6`), as hits of its name field."""
    if name is None or not phrases:
        return {}
    found: dict[str, int] = {}
    for part in name.lower().split("_"):
        m = _NUMBERED_PART.search(part)
        if m is None:
            continue
        word, number = m.groups()
        for (said, said_number), terms in phrases.items():
            if said_number != number:
                continue
            if said == word or (len(word) >= MIN_CUT_WORD and said.startswith(word)):
                found.update(dict.fromkeys(terms, 1))
                for term in terms:  # "unpack section 6" says "section 6" (and "sect6")
                    found.update(dict.fromkeys(_numbered_by(term, phrases), 1))
    return found


def _numbered_by(term: str, phrases: NumberedPhrases) -> list[str]:
    """The question's phrases of the word between `term`'s first and its number, or of a word it
    starts, with that number ("section_6", "sect_6" of "unpack_section_6")."""
    parts = term.split("_")
    if len(parts) != 3:
        return []
    middle, number = parts[1], parts[2]
    return [
        t
        for (said, said_number), terms in phrases.items()
        if said_number == number and len(said) >= MIN_CUT_WORD and middle.startswith(said)
        for t in terms
    ]
