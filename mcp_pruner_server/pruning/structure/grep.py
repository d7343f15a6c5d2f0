"""grep / ripgrep output: each hit is a unit scored with its file's path, kept with its heading.

The listing's layout (flat `path:12:text`, `--heading`, `--column`, no line numbers) is read by
`grep_layout.py`. A hit's score is BM25 over its own terms plus its path's (the heading line
counted with it), so "how does the ssh client use rsa keys" finds the hits in `ssh/client.go`;
a hit that defines something (`grep_defs.py`: `fn`, `enum class`, `public int Foo(` in the C
family …) has its name scored as a second field, and the file's base name a third, weighted as
a code unit's signature is. Kept hits bring their heading line. A minified line (or a source
map's) counts each of its terms once.

The searched name is in every hit, so the question's other words decide. When they name a
file ("how does *dispatcher* use set-global-default-error?"), that file's hits together (with
those of its namesakes, `index.cjs`/`index.mjs`) rank first, the searched name's definition
elsewhere counts as any hit, and the searched name's words in a path count for nothing
(`FoldingSet.h` is not named by "folding set node id ref"); when the question names several
files alike (`test.pb.go` in ten directories), the first hit of each comes first. When they
name none ("where is X defined?"), the definition's name and a file named after the searched
name itself lead (the file only when no hit defines the name).
Nothing is a `must`: in a listing of matches the word `error` is what was searched, not a
failure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.scoring import Doc, LineHits, bm25
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.grep_defs import defined_name, mentioned_name
from mcp_pruner_server.pruning.structure.grep_layout import (
    COLUMN,
    context_of_matches,
    is_match,
    path_and_text,
    with_columns,
)
from mcp_pruner_server.pruning.terms import line_terms as terms_of_line
from mcp_pruner_server.pruning.terms import stem, terms

# The defined name and the file's base name weigh this much, as a code unit's signature does
# (`code.NAME_WEIGHT`): "where is store scratch defined" is `type StoreScratch struct`, not
# `func (a StoreScratch) String()`; "how does bpf test use it" is `bpf_test.go`.
FIELD_WEIGHT = 3.0
# A question term found in at least this fraction of the hit lines is the searched pattern's.
PATTERN_FRACTION = 0.5
# A question's own words (and the abbreviations of them) weigh this much in the query; synonyms
# and runs of words less (`scoring.query_weights`).
WORD_WEIGHT = 1.0
# A question with one of these words asks for a definition: a file it seems to name ("*show*
# the definition of …", `show.py`) is the request's wording, and the definition is the answer.
_ASKS_DEFINITION = frozenset(
    stem(w) for w in ("define", "defined", "definition", "definitions", "declare", "declared", "declaration")
)
# A file's hits together rank this much above the file's best hit alone.
FILE_ABOVE_BEST_HIT = 1.01
# Files the question names with at least this fraction of the best file's naming score are
# named alike (the same base name; float sums of the same terms may differ in the last bits).
NAMED_ALIKE = 0.999
# A file's hits make one unit up to this many (its first ones beyond).
MAX_FILE_HITS = 20
# A name only mentioned after a definition keyword (`grep_defs.mentioned_name`) counts this much
# of a definition's.
MENTIONED_WEIGHT = 0.5
# A hit line longer than this is minified code or a source map's `sourcesContent`: it says a
# question's words hundreds of times, which makes it no more about them; each counts once.
MINIFIED_HIT_CHARS = 1_000


def _field(text: str, query: dict[str, float], *, joined: bool = False) -> Doc:
    """`text` (a defined name, a file's base name) as a little BM25 field of its own; with
    `joined`, also as one run-together word (`TestClock` is asked for as "testclock")."""
    found = list(terms_of_line(text))
    if joined:
        # stemmed as the question's words are: "printwriter" is the term `printwrit`; and its
        # letters apart from its digits ("removeinstanceimports 4" of `RemoveInstanceImports4`)
        together = re.sub(r"[^a-z0-9]", "", text.lower())
        found.append(stem(together))
        if not together.isalpha():
            found.extend(stem(part) for part in re.findall(r"[a-z]+", together))
    hits: dict[str, int] = {}
    for t in found:
        if t in query:
            hits[t] = hits.get(t, 0) + 1
    return Doc(hits, len(found))


def _named_after(base: str, searched: str | None, query: dict[str, float]) -> bool:
    """Whether a file's base name is the searched name itself (`WarningData` in
    `warningData.ts`), not a part of it (`cipher.go` for `NewUnauthenticatedCipher`, `ext` of
    `register_ext.go` for `InterfaceExt`); for a one-word name, a question word (a synonym is
    none: `__init__.py` is not named by "builder")."""
    if searched is not None:
        return _run_together(base) == searched
    parts = [t for t in terms_of_line(base) if "_" not in t]
    return bool(parts) and all(query.get(t, 0.0) >= WORD_WEIGHT for t in parts)


def _run_together(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _wholly_named(base: str, words: set[str]) -> bool:
    """Whether every word of a file's base name (or the name run together) is one of `words`."""
    parts = [t for t in terms_of_line(base) if "_" not in t]
    joined = stem(re.sub(r"[^a-z0-9]", "", base.lower()))
    return joined in words or (bool(parts) and all(t in words for t in parts))


@lru_cache(maxsize=1024)
def _base_name(path: str) -> str:
    """`zipAllState` of `dist/cjs/zipAllState.js.map`: the name before every extension (of the
    last part of the path that is neither empty nor `.`, as `PurePosixPath.name`, without its
    cost: a listing of 100k hits in as many files spent ~0.4 s building paths)."""
    name = next((part for part in reversed(path.split("/")) if part not in ("", ".")), "")
    return name.split(".", 1)[0]


def _file_terms(
    query: dict[str, float],
    goal_hint: str,
    texts: Sequence[set[str]],
    stems: Sequence[Doc],
    bases: Sequence[str],
) -> tuple[set[str] | None, str | None]:
    """The question's words other than the searched name's when one of them names a file among
    the hits (None when none does), and the searched name as the question spells it, run
    together (`newunauthenticatedcipher`).

    The searched pattern is in (nearly) every hit, so it says nothing about which hit is
    asked for: a question term in at least `PATTERN_FRACTION` of the hits' texts is the
    pattern's. The question less the pattern's spelling ("how does spend limit use
    project-spend-limit?" less `project_spend_limit`) names a file when one of its words is
    in a hit's file base name (`spend_limit.py`); a word only inside the spelled pattern
    does not (`decimal_format` of "decimal-format-symbols" is no `DecimalFormat.java`).
    """
    if not texts:
        return None, None
    counts: dict[str, int] = {}
    for found in texts:
        for t in found:
            counts[t] = counts.get(t, 0) + 1
    pattern = {t for t, c in counts.items() if c >= PATTERN_FRACTION * len(texts)}
    compounds = sorted((t for t in pattern if "_" in t), key=len, reverse=True)
    searched = compounds[0].replace("_", "") if compounds else None
    if compounds:
        spelled = r"[\s_-]*".join(map(re.escape, compounds[0].split("_")))
        said = re.sub(rf"(?i)(?<![A-Za-z0-9]){spelled}(?![a-z0-9])", " ", goal_hint)
        rest = set(terms(said))
    else:  # a one-word pattern: the question's other words
        said = goal_hint
        rest = set(terms(goal_hint)) - pattern
    if rest & _ASKS_DEFINITION:
        return None, searched  # "show the definition of X": the definition, wherever it is (not `show.py`)
    named = {t for d in stems for t in d.hits if t in rest}
    # A stop word is no term, yet it may be a file's whole name: "how does *new* use X" is `new.ex`.
    files = {_run_together(base) for base in set(bases)}
    rest |= {
        w for w in re.findall(r"[a-z0-9]+", said.lower()) if w in files and not terms(w) and w not in pattern
    }
    return (rest if named or rest - set(query) else None), searched


def _in_text(found: dict[str, int], in_path: dict[str, int]) -> set[str]:
    """The question terms `found` in a hit's line less those `in_path` (`_path_hits`), the part
    of a flat hit's line that is no text (the line's terms are already counted: a minified line
    of a megabyte is not cut into terms twice)."""
    return {t for t, tf in found.items() if tf > in_path.get(t, 0)}


def _path_hits(path: str, query: dict[str, float]) -> dict[str, int]:
    in_path: dict[str, int] = {}
    for t in terms_of_line(path):
        if t in query:
            in_path[t] = in_path.get(t, 0) + 1
    return in_path


def _of_words(query: dict[str, float], words: set[str]) -> set[str]:
    """The query terms that are one of `words` or a run of words holding one (`test_5` of
    "tst nss test 5", `core_js`), not those made of the searched pattern's words alone."""
    return {t for t in query if t in words or any(stem(p) in words for p in t.split("_"))}


def _weaker(doc: Doc) -> Doc:
    return Doc({t: MENTIONED_WEIGHT * tf for t, tf in doc.hits.items()}, doc.length)


def _only(doc: Doc, wanted: set[str]) -> Doc:
    return Doc({t: tf for t, tf in doc.hits.items() if t in wanted}, doc.length)


def _scores(
    query: dict[str, float],
    docs: Sequence[Doc],
    names: Sequence[Doc],
    stems: Sequence[Doc],
    deadline: Deadline,
) -> list[float]:
    return [
        body + FIELD_WEIGHT * (name + base)
        for body, name, base in zip(
            bm25(query, docs, deadline=deadline),
            bm25(query, names, deadline=deadline),
            bm25(query, stems, deadline=deadline),
            strict=True,
        )
    ]


def grep_units(
    lines: Sequence[str],
    headings: Sequence[int | None],
    lh: LineHits,
    query: dict[str, float],
    *,
    goal_hint: str = "",
    deadline: Deadline,
) -> list[Unit]:
    """One unit per hit line (with its context lines, `rg -C`): its terms and its path's, plus
    two fields weighted like a code unit's signature: the name it defines (if it is a
    definition) and its file's base name.
    When the question names a file, that file's hits (up to `MAX_FILE_HITS`, with those of the
    files of the same base name) are also a unit, so that a question about how one file uses
    something keeps all of them."""
    spans: list[tuple[tuple[int, ...], int | None]] = []
    docs: list[Doc] = []
    names: list[Doc] = []
    defined: list[str | None] = []  # per hit: the name it defines
    stems: list[Doc] = []
    files: dict[str, list[int]] = {}  # path -> its hit lines
    file_hits: dict[str, list[int]] = {}  # path -> the indexes of its hits' units
    texts: list[set[str]] = []  # per hit: the question terms in its text (its path aside)
    bases: list[str] = []  # per hit: its file's base name
    columns = with_columns(lines, headings)
    around = context_of_matches(lines, headings, deadline=deadline)
    # what depends on a hit's path alone, once per path or base name (a file has many hits)
    path_hits: dict[str, dict[str, int]] = {"": {}}
    stem_fields: dict[str, Doc] = {}
    for i, head in deadline.paced(enumerate(headings)):
        if head is None or i in around.owner:
            continue
        shown = head if head != i else None
        with_context = around.groups.get(i, (i,))
        path, text = path_and_text(lines[i], lines[shown] if shown is not None else None)
        if columns and is_match(lines[i], shown is not None):
            text = COLUMN.sub("", text, count=1)
        files.setdefault(path, []).append(i)
        in_path = path if shown is None else ""
        if (known := path_hits.get(in_path)) is None:
            known = path_hits[in_path] = _path_hits(in_path, query)
        texts.append(_in_text(lh.hits[i], known))  # the match's own
        file_hits.setdefault(path, []).append(len(spans))
        name = defined_name(text, path)
        defined.append(name)
        if name is not None:
            names.append(_field(name, query))
        elif len(lines[i]) <= MINIFIED_HIT_CHARS and (name := mentioned_name(text)) is not None:
            names.append(_weaker(_field(name, query)))
        else:
            names.append(Doc({}, 0))
        base = _base_name(path)
        if (stem_field := stem_fields.get(base)) is None:
            stem_field = stem_fields[base] = _field(base, query, joined=True)
        stems.append(stem_field)
        bases.append(base)
        spans.append((with_context, shown))
        doc = lh.span(with_context[0], with_context[-1] + 1, repeat=[shown] if shown is not None else [])
        if any(len(lines[k]) > MINIFIED_HIT_CHARS for k in with_context):
            doc = Doc(dict.fromkeys(doc.hits, 1), doc.length)
        docs.append(doc)
    # the passes below over every hit look at the clock in between: each is ~0.1 s on 100k hits
    deadline.check()
    named, searched = _file_terms(query, goal_hint, texts, stems, bases)
    deadline.check()
    if named is not None and named - set(query):
        # a stop word that names a file (`new.ex`) joins the query, as one of its words
        query = {**query, **dict.fromkeys(named - set(query), WORD_WEIGHT)}
        stem_fields = {base: _field(base, query, joined=True) for base in deadline.paced(set(bases))}
        stems = [stem_fields[base] for base in bases]
    if named is None:
        # Only a file named after the searched name itself (`warningData.ts`) is a hint where
        # it is defined; `register_ext.go` shares a word with `InterfaceExt` by accident. And
        # none when a hit defines it: `pub fn help_template(` is the answer, not the doc
        # comments of `help_template.rs` that mention it.
        hinted = searched is None or not any(
            name is not None and _run_together(name) == searched for name in defined
        )
        after = {
            base for base in deadline.paced(set(bases)) if hinted and _named_after(base, searched, query)
        }
        stems = [d if base in after else Doc({}, d.length) for d, base in zip(stems, bases, strict=True)]
        deadline.check()
        hit_scores = _scores(query, docs, names, stems, deadline)
    else:
        wholly = {base for base in deadline.paced(set(bases)) if _wholly_named(base, named)}
        if wholly:
            # "how does formatter use X": `Formatter.java`, not `SimpleDateFormat.java`
            stems = [d if base in wholly else Doc({}, d.length) for d, base in zip(stems, bases, strict=True)]
        # The question names a file: its hits are the answer, not the searched name's
        # definition elsewhere, nor a file named after the searched name (`warningData.ts`).
        # The searched pattern's words say nothing there (they are in every hit), yet in a path
        # (`FoldingSet.h` for "folding set node id ref") they would outrank the named file.
        other = _of_words(query, named)
        stems = [_only(d, named) for d in deadline.paced(stems)]
        hit_scores = _scores(
            query, [_only(d, other) for d in deadline.paced(docs)], [Doc({}, 0)] * len(names), stems, deadline
        )
        naming = bm25(query, stems, deadline=deadline)
    scores = list(hit_scores)
    units: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
        (hit, (shown,) if shown is not None else ()) for hit, shown in spans
    ]
    if named is not None:
        groups = _same_named(files, deadline)
        for group in groups:
            first = sorted(i for path in group for i in files[path])[:MAX_FILE_HITS]
            hits = [k for i in first for k in around.groups.get(i, (i,))]
            context = tuple(sorted({h for i in hits if (h := headings[i]) is not None and h != i}))
            units.append((tuple(hits), context))
            # just above its best hit: the question asks how the file uses the name, which all
            # of its hits show (a single hit would leave no room for the rest at a tight budget)
            scores.append(max(hit_scores[k] for path in group for k in file_hits[path]) * FILE_ABOVE_BEST_HIT)
        alike = _named_alike(files, file_hits, naming, query, other, deadline)
        if len(alike) >= 2 and not any(set(alike) <= set(group) for group in groups):
            firsts = tuple(sorted(files[path][0] for path in alike))
            context = tuple(sorted({h for i in firsts if (h := headings[i]) is not None and h != i}))
            units.append((firsts, context))
            scores.append(max(scores, default=0.0) * FILE_ABOVE_BEST_HIT)
    return [
        Unit(hits, score, context)
        for (hits, context), score in deadline.paced(zip(units, scores, strict=True))
        if score > 0
    ]


def _named_alike(
    files: dict[str, list[int]],
    file_hits: dict[str, list[int]],
    naming: Sequence[float],
    query: dict[str, float],
    other: set[str],
    deadline: Deadline,
) -> list[str]:
    """The files the question names best, alike (`test.pb.go` in ten directories, `stream.js`
    and `stream.ts`; one file when the question tells it apart, `tst-nss-test5.c` of "tst nss
    test 5"): by their base names and the question's other words in their paths, not by
    their hits' texts (a short hit line is no better named)."""
    paths = [path for path in deadline.paced(files) if naming[file_hits[path][0]] > 0]
    # the weights of the words found, unnormalised: a longer path is no less named
    scored = [
        sum(query[t] for t in _only(_field(path, query), other).hits)
        + FIELD_WEIGHT * naming[file_hits[path][0]]
        for path in deadline.paced(paths)
    ]
    best = max(scored, default=0.0)
    return [path for path, score in zip(paths, scored, strict=True) if score >= best * NAMED_ALIKE]


def _same_named(files: dict[str, list[int]], deadline: Deadline) -> list[list[str]]:
    """The files whose hits make a unit together: those sharing a base name (the question that
    names `index` fits `index.cjs` and `index.mjs` alike, `TestClock.ts` and its compiled
    `TestClock.js`: keep them all rather than guess), else each file alone, when the hits
    are at least 2 and at most `MAX_FILE_HITS`. A file with more hits is shown by its first
    `MAX_FILE_HITS` (where a reader starts: its imports and declarations come first)."""
    by_name: dict[str, list[str]] = {}
    for path in deadline.paced(files):
        # `_responses.py` and `responses.py` are both "responses" to the question
        by_name.setdefault(re.sub(r"[^a-z0-9]", "", _base_name(path).lower()), []).append(path)
    out: list[list[str]] = []
    for group in by_name.values():
        count = sum(len(files[path]) for path in group)
        if count > MAX_FILE_HITS:
            out.extend([path] for path in group if len(files[path]) >= 2)
        elif 2 <= count <= MAX_FILE_HITS:
            out.append(group)
    return out
