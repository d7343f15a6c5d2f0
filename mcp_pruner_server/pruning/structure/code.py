"""Code blocks as units for the selector: how each definition scores for the question.

A definition's body and its signature are two BM25 fields; a definition called from a line
relevant to the question gets credit for it, and namesakes (sync/async twins, overloads)
stay close to the best of them. Where the blocks are is `structure/code_blocks.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.languages.registry import by_name, hooks_of
from mcp_pruner_server.pruning.rules import hook_on, on
from mcp_pruner_server.pruning.scoring import Doc, LineHits, bm25, bm25_sparse, names_said
from mcp_pruner_server.pruning.select import MAX_FOCUS_UNITS, Unit
from mcp_pruner_server.pruning.structure.calls import called_credit, unit_names
from mcp_pruner_server.pruning.structure.class_fields import with_fields, words_of
from mcp_pruner_server.pruning.structure.code_blocks import (
    Block,
    find_blocks,
    import_lines,
    is_header,
    signature_end,
)
from mcp_pruner_server.pruning.structure.language_hooks import Ranked
from mcp_pruner_server.pruning.structure.module_names import constants_used, module_bindings
from mcp_pruner_server.pruning.structure.name_words import named_twins_first, question_acronyms
from mcp_pruner_server.pruning.structure.unit_kinds import named_by_code_words

# `import_lines` and `is_header` are also used by the backends' safety rules through here.
__all__ = [
    "code_units",
    "find_blocks",
    "import_lines",
    "is_header",
    "namesakes_together",
    "twins_together",
]

# The signature (name and parameters) is a second field scored on its own and weighted
# this much: a function named for the question is the strongest signal a file offers
# (3 rather than 2 measured +1 point of recall on held-out code, neutral on dev).
NAME_WEIGHT = 3.0
# Length normalisation of the unit fields, full rather than BM25_B: a long definition
# (docstring, examples, See Also) matches a question's words by sheer size, the short one
# that does the job does not (+1.5 points of held-out recall, neutral on dev).
UNIT_B = 1.0
# A method's name is qualified by its class: the enclosing header joins the name field once.
CLASS_NAME_REPEAT = 1
# How many of the best units bring the imports they use (the focus is at most this many).
IMPORTING_UNITS = MAX_FOCUS_UNITS
# Module-level code outside any definition is cut into chunks of at most this many lines.
CHUNK_LINES = 30
# A parser's container without members is one unit, as a function is: a C struct, a Swift protocol
# (chunked, the C++ and Swift dev sets lost a task each). In a language whose hooks say
# `chunk_long_containers` one over `CHUNK_LINES` is its header, its body chunks (Fortran dev
# sets: 2 tasks more, 1 fewer).


def _bound_names(lines: Sequence[str], start: int, end: int) -> set[str]:
    text = " ".join(line.strip() for line in lines[start:end])
    names: set[str] = set()
    m = re.search(r"\bimport\s+\(?(.+?)\)?\s*$", text)
    if not m:
        return names
    for part in m.group(1).split(","):
        words = part.split()
        if not words:
            continue
        name = words[-1] if len(words) >= 3 and words[-2] == "as" else words[0]  # `x as y` binds y
        names.add(name.split(".")[0].strip("()"))
    return names


def code_units(
    lines: Sequence[str],
    lh: LineHits,
    query: dict[str, float],
    line_scores: Sequence[float] | None = None,
    *,
    blocks: Sequence[Block] | None = None,
    lang: str | None = None,
    question: str = "",
    deadline: Deadline = NO_DEADLINE,
) -> list[Unit]:
    """Each definition (and each chunk of top-level code) as a scored unit with its context.

    A unit's context is the signature of every enclosing definition (so a method comes with
    its `class` line); the best units also bring the imports their body uses and the top-level
    constants and tables it reads (`module_names.py`). With the relevance of every line
    (`line_scores`), a definition called from a relevant line also gets credit for it (see
    `called_credit`). `blocks` are the definitions a parser found
    (`syntax.py`); without them they are found by indentation and braces (or by the language's
    own `block_finder`). `lang` (a key of `languages.registry.LANGUAGES`, None if unknown) says what
    a call looks like (`calls.py`) and which rules of its own apply (its record's `hooks`).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    parsed = blocks is not None
    hooks = hooks_of(lang)
    if blocks is None and hooks.block_finder is not None:
        blocks = hooks.block_finder(lines, deadline=deadline)
    elif blocks is None:
        blocks = find_blocks(lines, comment=by_name(lang).comment, deadline=deadline)
    deadline.check()
    imports = import_lines(lines, by_name(lang).import_starts)
    deadline.check()
    in_import = {i for s, e in imports for i in range(s, e)}
    first_child: dict[int, int] = {}
    for c in blocks:
        if c.parent is not None:
            first_child.setdefault(c.parent, c.start)
    nested_headers: dict[int, list[int]] = {}  # function -> header lines of the closures inside it
    for c in blocks:
        top = c.parent
        while top is not None:
            up = blocks[top].parent
            if up is None or blocks[up].container:
                break
            top = up
        if top is not None and not blocks[top].container:
            nested_headers.setdefault(top, []).append(c.header)
    owned = [False] * len(lines)
    acronyms = question_acronyms(question, query)
    spans: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    signatures: list[str] = []  # each unit's header lines, for what they declare it returns
    bags: list[Doc] = []
    names: list[Doc] = []
    sig_end = [signature_end(lines, b) for b in deadline.paced(blocks)]
    bag_of = hooks.doc_bags(lines, lh, blocks) if parsed and hooks.doc_bags is not None else None
    # the language's name hits, with those made for this prune alone
    all_name_hits = [
        hit
        for hit in (*hooks.name_hits, *(hooks.prepare(lines, query) if hooks.prepare is not None else ()))
        if hook_on(lang, hit)
    ]
    for k, b in deadline.paced(enumerate(blocks)):
        if parsed:
            # a parser's container is its signature alone (fields and comments become chunks):
            # its class doc and constants never outweigh the member the question is about
            chunked = hooks.chunk_long_containers and b.end - b.start > CHUNK_LINES
            end = sig_end[k] if b.container and (k in first_child or chunked) else b.end
            owned[b.start : end] = [True] * (end - b.start)
        else:
            if b.parent is None:  # inner blocks lie inside their outer one
                owned[b.start : b.end] = [True] * (b.end - b.start)
            elif not blocks[b.parent].container:
                continue  # a closure is part of its function's logic: the function is the unit
            end = max(sig_end[k], first_child.get(k, b.end)) if b.container else b.end
        body = tuple(range(b.start, end))
        context: list[int] = []
        parent = b.parent
        while parent is not None:
            context.extend(range(blocks[parent].start, sig_end[parent]))
            parent = blocks[parent].parent
        spans.append((body, tuple(context)))
        signatures.append(" ".join(lines[b.header : sig_end[k]]))
        # what comes before the header (doc comment, attributes) counts `LEAD_WEIGHT` a line
        if bag_of is not None:  # the language's docs elsewhere (MATLAB's help inside) count so too
            bags.append(bag_of(k, end))
        else:
            bags.append(lh.led(b.start, b.header, end) if parsed else lh.doc(body))
        owner = [blocks[b.parent].header] * CLASS_NAME_REPEAT if b.parent is not None else []
        name_field = lh.doc(range(b.header, sig_end[k]), repeat=[*nested_headers.get(k, ()), *owner])
        for name_hits in all_name_hits:  # the field's own hits win
            if implied := name_hits(b, lines, query):
                name_field = Doc({**implied, **name_field.hits}, name_field.length)
        names.append(name_field)
    # documentation outside definitions counts as a doc comment does (`LEAD_WEIGHT` a line)
    doc_rows = hooks.doc_rows(lines) if hooks.doc_rows is not None else set()
    measured = [True] * len(names)  # the name fields their average length is taken over
    chunks: list[tuple[int, ...]] = []
    for chunk in _chunks(lines, owned, in_import, deadline):
        if chunk[0] not in doc_rows:  # documentation binds no constant
            chunks.append(chunk)
        spans.append((chunk, ()))
        signatures.append("")
        end = chunk[-1] + 1
        bags.append(lh.led(chunk[0], end, end) if chunk[0] in doc_rows else lh.doc(chunk))
        names.append(Doc({}, 0))
        measured.append(chunk[0] not in doc_rows)
    body_scores = bm25(query, bags, b=UNIT_B, deadline=deadline)
    name_query = {**acronyms, **query}
    coded = named_by_code_words(question, [b.name for b in blocks] if parsed else [])
    coded = coded if on("code_words_named") else {}
    if coded:
        # the stop word is a term of the name fields alone (no line's terms hold it)
        name_query = {**name_query, **dict.fromkeys(coded.values(), 1.0)}
        for k, word in coded.items():
            names[k] = Doc({**names[k].hits, word: 1}, names[k].length)
    name_scores = _name_scores(name_query, names, measured, deadline)
    bodies = [body for body, _ in spans]
    if parsed:  # the parser knows every definition's name (a C or Java one has no keyword)
        defined = [b.name for b in blocks] + [None] * (len(bodies) - len(blocks))
    else:  # one unit at a time: on 100k lines of chunks this is ~0.1 s
        defined = [name for body in deadline.paced(bodies) for name in unit_names(lines, (body,))]
    if on("unsaid_name_lowered"):
        said = names_said([d if s else None for s, d in zip(name_scores, defined, strict=True)], query)
        name_scores = [s * f for s, f in zip(name_scores, said, strict=True)]
    scores = [body + NAME_WEIGHT * name for body, name in zip(body_scores, name_scores, strict=True)]
    if line_scores is not None and on("called_credit"):
        credit = called_credit(lines, bodies, line_scores, names=defined, lang=lang, deadline=deadline)
        scores = [score + CALLED_WEIGHT * c for score, c in zip(scores, credit, strict=True)]
    # Each pass below is one loop over the units, which nothing inside looks at the clock for:
    # a look between two of them keeps a deadline passing there from waiting for all the rest.
    deadline.check()
    ranked = Ranked(question, defined, signatures, lines, bodies)
    for reorder in hooks.reorders:
        deadline.check()
        if hook_on(lang, reorder):
            scores = reorder(ranked, scores)
    if on("namesakes_together"):
        owners = [b.parent for b in blocks] if parsed else []
        owners += [None] * (len(bodies) - len(owners))
        scores = namesakes_together(defined, scores, owners, deadline=deadline)
    if on("twins_together"):
        scores = twins_together(defined, scores, deadline=deadline)
    if on("named_twins_first"):
        scores = named_twins_first(defined, scores, query, [bag.hits for bag in bags], deadline=deadline)
    deadline.check()
    # a container with members (`impl X {`) is their context, never a unit of its own:
    if parsed and on("containers_as_context"):
        # its header alone, one short line named like its members, outscored them (Rust dev)
        scores = [0.0 if k in first_child and blocks[k].container else s for k, s in enumerate(scores)]
    units = [Unit(body, score, around) for (body, around), score in zip(spans, scores, strict=True)]
    if line_scores is not None:
        units = [replace(u, peak=_best_lines(u.lines, line_scores)) for u in units]
    if parsed and on("class_fields"):
        deadline.check()
        with_fields(lines, blocks, sig_end, units)
    return _with_uses(lines, units, imports, chunks)


def _with_uses(
    lines: Sequence[str],
    units: list[Unit],
    imports: Sequence[tuple[int, int]],
    chunks: Sequence[tuple[int, ...]],
) -> list[Unit]:
    """The best units (those that can make the focus) with what their bodies use: the imports
    binding their words (`imports_used`) and the top-level constants and tables they read
    (`constants_used`, lines of `chunks`)."""
    import_names = (
        [(_bound_names(lines, s, e), range(s, e)) for s, e in imports] if on("imports_used") else []
    )
    bindings = module_bindings(lines, chunks) if chunks and on("constants_used") else {}
    if not import_names and not bindings:
        return units
    chunk_set = set(chunks)
    for k in sorted(range(len(units)), key=lambda k: -units[k].score)[:IMPORTING_UNITS]:
        unit = units[k]
        used = words_of(lines, unit.lines)
        uses = [i for bound, rng in import_names if bound & used for i in rng]
        if unit.score > 0 and unit.lines not in chunk_set:  # top-level code may be the constants
            uses += constants_used(bindings, used)
        units[k] = replace(unit, uses=(*unit.uses, *uses))
    return units


# A unit's peak is the sum of its this many best line scores.
BEST_LINES = 3


def _best_lines(body: Sequence[int], line_scores: Sequence[float]) -> float:
    return sum(sorted((line_scores[i] for i in body), reverse=True)[:BEST_LINES])


def _name_scores(
    query: dict[str, float], names: Sequence[Doc], measured: Sequence[bool], deadline: Deadline
) -> list[float]:
    """BM25 of the units' name fields, their average length taken over the `measured` ones only.

    Perl's POD paragraphs outside the subs' docs are chunks with no name (thirty to a sub in a
    module documented after `__END__`): counted in the average name length, they made every
    sub's name many times the average, and a sub named for the question lost to a paragraph
    worded like it. They still count as documents for the names' IDF, as chunks of code do."""
    total = sum(d.length for d, m in zip(names, measured, strict=True) if m)
    scaled = round(total * len(names) / max(1, sum(measured)))
    with_hits = {i: d for i, d in enumerate(names) if d.hits}
    sparse = bm25_sparse(query, with_hits, len(names), scaled, b=UNIT_B, deadline=deadline)
    return [sparse.get(i, 0.0) for i in range(len(names))]


def _chunks(
    lines: Sequence[str], owned: Sequence[bool], in_import: set[int], deadline: Deadline
) -> Iterator[tuple[int, ...]]:
    """Runs of at most `CHUNK_LINES` consecutive non-blank lines outside every unit and import."""
    chunk: list[int] = []
    for i, line in deadline.paced(enumerate(lines)):
        if owned[i] or i in in_import or not line.strip():
            if chunk:
                yield tuple(chunk)
                chunk = []
            continue
        if len(chunk) >= CHUNK_LINES:
            yield tuple(chunk)
            chunk = []
        chunk.append(i)
    if chunk:
        yield tuple(chunk)


# A definition called from a line relevant to the question gets this fraction of that line's
# score: the helper that does the work is often named in the code (or the docstring, as
# `wait()`) that the question's words point at, not in its own body. Measured on held-out
# code (13 sets, 750 tasks): +0.6 to +3.4 points of recall; dev unchanged.
CALLED_WEIGHT = 0.6
# A definition's namesakes (the sync and async twins of a client method, `@overload` stubs,
# the same method in sibling classes) score at least this fraction of the best of them: a
# question about one is about the others (+2 points of held-out recall, dev unchanged).
NAMESAKE_SHARE = 0.7


def _namesake_key(name: str) -> str:
    """What namesakes share: the name without its async/sync suffix, its leading underscores (a
    public `removeImage` and its private `_removeImage`) and its first letter's case (Go's exported
    `ListObjects` and its unexported worker `listObjects`)."""
    key = _ASYNC.sub("", name) or name
    key = key.lstrip("_") or key
    return key[:1].lower() + key[1:]


def namesakes_together(
    names: Sequence[str | None],
    scores: Sequence[float],
    owners: Sequence[int | None] | None = None,
    *,
    deadline: Deadline = NO_DEADLINE,
) -> list[float]:
    """`scores` with every namesake raised to `NAMESAKE_SHARE` of the best (dunders excepted);
    with `owners` (each unit's container), only namesakes in one container are raised together.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    out = list(scores)
    scope = owners if owners is not None and on("namesakes_one_owner") else [None] * len(names)
    keys = [
        None if n is None or n.startswith("__") else (owner, _namesake_key(n))
        for n, owner in zip(deadline.paced(names), scope, strict=True)
    ]
    best: dict[tuple[int | None, str], float] = {}
    for key, score in zip(keys, scores, strict=True):
        if key is not None:
            best[key] = max(best.get(key, 0.0), score)
    for k, key in enumerate(keys):
        if key is not None:
            out[k] = max(out[k], NAMESAKE_SHARE * best[key])
    return out


# The async twin of a method is named with one of these suffixes (C#'s `ReadAsync`, `read_async`),
# the sync twin of an async one with another (Node's `readFileSync`).
_ASYNC = re.compile(r"(?:Async|_async|Sync|_sync)$")


# A near-twin of a definition (`initialized` / `initialized_mut`, `read_le8` / `read_be8`,
# `alpha0` / `alpha1`: the same name parts but one short one) scores at least this fraction
# of it: its docs or body match the question's words, the twin that lacks them may be meant
# (dev sets: Rust recall 0.73 -> 0.80, the shared Python one 0.86 -> 0.87; 0.5 and 0.7 no better).
TWIN_SHARE = 0.6
# Of the share, this part follows the twin's own score in a family of three or more twins told
# apart by a word (a Fortran package's `rch_cf`, `rch_fc`, `rch_rp` …: a prefix, not a sameness):
# they are ordered by what each matches, not tied (where the fill takes the smallest first).
TWIN_OWN_WEIGHT = 0.2
# The one part twins may differ by is at most this long (`mut`, `le`, `be`, `0`, `v2`).
MAX_TWIN_PART = 3
_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def _twin_key(parts: Sequence[str], skip: int) -> tuple[str, ...]:
    return (*parts[:skip], "*", *parts[skip + 1 :])


def twins_together(
    names: Sequence[str | None], scores: Sequence[float], *, deadline: Deadline = NO_DEADLINE
) -> list[float]:
    """`scores` with every near-twin raised to `TWIN_SHARE` of the best of its twins.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    groups: dict[tuple[str, ...], list[int]] = {}
    worded: set[tuple[tuple[str, ...], int]] = set()  # a twin that differs by a word, not a number
    for k, name in deadline.paced(enumerate(names)):
        if name is None or name.startswith("__"):
            continue
        parts = [p.lower() for p in _NAME_PARTS.findall(name)]
        for skip in range(len(parts)):
            if len(parts[skip]) <= MAX_TWIN_PART and len(parts) > 1:
                key = _twin_key(parts, skip)
                groups.setdefault(key, []).append(k)  # one part differs
                if not parts[skip].isdigit():
                    worded.add((key, k))
        groups.setdefault((*parts, "+"), []).append(k)  # `get` is a twin of `get_mut` …
        if len(parts) > 1 and len(parts[-1]) <= MAX_TWIN_PART:
            key = (*parts[:-1], "+")
            groups.setdefault(key, []).append(k)  # … which has one more part
            if not parts[-1].isdigit():
                worded.add((key, k))
    out = list(scores)
    for key, members in deadline.paced(groups.items()):
        distinct = len({names[k] for k in members})
        if distinct < 2:
            continue
        share = TWIN_SHARE * max(scores[k] for k in members)
        for k in members:
            # A pair is one thing and its variant, numbered twins (`alpha0`, `rectdiff1`) flavours
            # of one thing: those share in full; a family's worded members by their own score.
            weight = TWIN_OWN_WEIGHT if distinct > 2 and (key, k) in worded else 0.0
            own = min(1.0, scores[k] / share) if share > 0 else 1.0
            out[k] = max(out[k], share * (1 - weight * (1 - own)))
    return out
