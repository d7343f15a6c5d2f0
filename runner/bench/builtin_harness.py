"""The bench's own harness, for an install without the team's `../shared/eval`.

The same method as the shared harness, written here from its description (not copied): our
engine's kept lines are read back from its annotations, and four baselines keep exactly as many
non-blank lines of the same task: `headtail` (observation masking: the head and the tail),
`uniform` (evenly spaced), `keyword` (lines sharing the most terms with the question) and
`bm25block` (the blank-line-separated blocks that score best under BM25, in file order). The
metrics are `quality._score`'s, identical for both harnesses.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

Task = Mapping[str, object]

# BM25's usual constants: term-frequency saturation and length normalisation.
BM25_K1 = 1.2
BM25_B = 0.75
# A block longer than this is split: one giant block would otherwise be all or nothing.
MAX_BLOCK_LINES = 40
# Too common in questions and code to say anything about a line.
_STOPWORDS_TEXT = (
    "the a an and or of to in is are be for on with how does do what why where which when this "
    "that it from by as at if not return self none true false def class import"
)
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def terms(text: str) -> list[str]:
    """Lowercased words of `text`, identifiers split on `_` and camelCase, stopwords dropped."""
    out: list[str] = []
    for word in _WORD.findall(text.replace("_", " ")):
        for part in _CAMEL.split(word):
            lowered = part.lower()
            if len(lowered) > 1 and lowered not in _STOPWORDS:
                out.append(lowered)
    return out


def nonblank(lines: Sequence[str]) -> list[int]:
    """0-based indexes of the lines that hold anything but whitespace."""
    return [i for i, line in enumerate(lines) if line.strip()]


def kept_from_result(result: Mapping[str, object], n_lines: int) -> tuple[set[int], list[str]]:
    """0-based kept line indexes of a `prune_text` result (all lines minus its annotated blocks),
    with any contract problem found in the annotations."""
    kept = set(range(n_lines))
    problems: list[str] = []
    annotations = result.get("annotations", [])
    assert isinstance(annotations, list)
    previous_end = 0
    for annotation in annotations:
        start, end = int(annotation["original_start_line"]), int(annotation["original_end_line"])
        if not 1 <= start <= end <= n_lines:
            problems.append(f"annotation {start}-{end} outside 1-{n_lines}")
            continue
        if start <= previous_end:
            problems.append(f"annotation {start}-{end} overlaps or is out of order")
        if int(annotation["pruned_line_count"]) != end - start + 1:
            problems.append(f"annotation {start}-{end} counts {annotation['pruned_line_count']} lines")
        previous_end = end
        kept -= set(range(start - 1, end))
    return kept, problems


def headtail(_task: Task, lines: Sequence[str], k: int) -> set[int]:
    candidates = nonblank(lines)
    head = k - k // 2
    return set(candidates[:head]) | set(candidates[len(candidates) - (k - head) :] if k > head else [])


def uniform(_task: Task, lines: Sequence[str], k: int) -> set[int]:
    candidates = nonblank(lines)
    if k <= 0 or not candidates:
        return set()
    step = len(candidates) / min(k, len(candidates))
    return {candidates[int(i * step)] for i in range(min(k, len(candidates)))}


def keyword(task: Task, lines: Sequence[str], k: int) -> set[int]:
    question = set(terms(str(task["goal_hint"])))
    scored = [(-len(question & set(terms(lines[i]))), i) for i in nonblank(lines)]
    return {i for _, i in sorted(scored)[:k]}


def _blocks(lines: Sequence[str]) -> list[list[int]]:
    blocks: list[list[int]] = []
    current: list[int] = []
    for i, line in enumerate(lines):
        if line.strip():
            current.append(i)
        if (not line.strip() or len(current) >= MAX_BLOCK_LINES) and current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def bm25block(task: Task, lines: Sequence[str], k: int) -> set[int]:
    blocks = _blocks(lines)
    if not blocks or k <= 0:
        return set()
    docs = [Counter(t for i in block for t in terms(lines[i])) for block in blocks]
    mean_length = sum(sum(doc.values()) for doc in docs) / len(docs) or 1.0
    frequency = Counter(t for doc in docs for t in doc)
    query = set(terms(str(task["goal_hint"])))

    def score(doc: Counter[str]) -> float:
        length = sum(doc.values())
        total = 0.0
        for term in query & doc.keys():
            idf = math.log(1 + (len(docs) - frequency[term] + 0.5) / (frequency[term] + 0.5))
            tf = doc[term]
            total += idf * tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * length / mean_length))
        return total

    ranked = sorted(range(len(blocks)), key=lambda b: (-score(docs[b]), b))
    kept: set[int] = set()
    for b in ranked:
        room = k - len(kept)
        if room <= 0:
            break
        kept.update(blocks[b][:room])
    return kept


BASELINES = {"headtail": headtail, "uniform": uniform, "keyword": keyword, "bm25block": bm25block}
