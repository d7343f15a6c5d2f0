"""Code blocks as scored units: body and name fields, call credit, namesakes."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure import code
from mcp_pruner_server.pruning.structure.code import NAMESAKE_SHARE, code_units, namesakes_together
from mcp_pruner_server.pruning.structure.name_words import named_twins_first

CLOSURE = [
    "class Store:",
    "    def save(self, key):",
    "        self.items[key] = 1",
    "",
    "    def load(self, key):",
    "        def decode(raw):",
    "            return raw.strip()",
    "        return decode(self.items[key])",
]


def test_a_closure_is_scored_as_part_of_its_function_not_as_a_unit() -> None:
    query = query_weights("decode the raw item")
    units = code_units(CLOSURE, line_hits(line_terms(CLOSURE), query), query)
    best = max(units, key=lambda u: u.score)
    assert CLOSURE[best.lines[0]].strip() == "def load(self, key):"
    assert CLOSURE.index("class Store:") in best.context


def test_the_helper_a_relevant_function_calls_outranks_an_unrelated_one() -> None:
    lines = [
        "def renew_session_token(session):",
        "    session.token = _compute(session)",
        "",
        "def _compute(s):",
        "    return hash(s) ^ 7",
        "",
        "def _unrelated(s):",
        "    return hash(s) ^ 9",
    ]
    query = query_weights("how is the session token renewed?")
    lh = line_hits(line_terms(lines), query)
    units = code_units(lines, lh, query, window_scores(query, lh))
    compute = next(u for u in units if lines[u.lines[0]].startswith("def _compute"))
    unrelated = next(u for u in units if lines[u.lines[0]].startswith("def _unrelated"))
    assert compute.score > unrelated.score == 0.0


RUBY_PAGE = [
    "def render_page_header(page)",
    "  draw_banner page.title",
    "end",
    "",
    "def draw_banner(text)",
    "  puts text.center(80)",
    "end",
    "",
    "def unrelated_thing(x)",
    "  puts x",
    "end",
]
POWERSHELL_PAGE = [
    "function Render-PageHeader {",
    "    DrawBanner -Text $page.Title",
    "}",
    "",
    "function DrawBanner {",
    "    param($Text)",
    "    Write-Host $Text",
    "}",
]


@pytest.mark.parametrize(
    ("lang", "lines", "callee"),
    [("ruby", RUBY_PAGE, "def draw_banner"), ("powershell", POWERSHELL_PAGE, "function DrawBanner")],
)
def test_the_engine_passes_the_language_that_lets_calls_omit_parentheses(
    lang: str, lines: list[str], callee: str
) -> None:
    query = query_weights("how is the page header rendered?")
    lh = line_hits(line_terms(lines), query)
    for language, credited in ((lang, True), (None, False)):
        units = code_units(lines, lh, query, window_scores(query, lh), lang=language)
        called = next(u for u in units if lines[u.lines[0]].startswith(callee))
        assert (called.score > 0.0) is credited


def test_namesakes_score_close_to_the_best_of_them_and_dunders_do_not() -> None:
    names = ["create", "create", "__init__", "__init__", None, "delete"]
    scores = [10.0, 1.0, 8.0, 0.0, 3.0, 2.0]
    assert namesakes_together(names, scores) == [10.0, NAMESAKE_SHARE * 10.0, 8.0, 0.0, 3.0, 2.0]


def test_a_method_and_its_async_or_sync_twin_are_namesakes() -> None:
    names = ["ReloadTypes", "ReloadTypesAsync", "read_async", "read", "readFileSync", "readFile", "Async"]
    scores = [10.0, 1.0, 0.0, 5.0, 4.0, 0.0, 0.0]
    out = namesakes_together(names, scores)
    assert out[1] == NAMESAKE_SHARE * 10.0
    assert out[2] == NAMESAKE_SHARE * 5.0
    assert out[5] == NAMESAKE_SHARE * 4.0
    assert out[6] == 0.0  # a name that is all suffix has no twin


def test_a_public_definition_and_its_private_or_exported_spelling_are_namesakes() -> None:
    names = ["removeImage", "_removeImage", "ListObjects", "listObjects", "_", "__init__", "init"]
    scores = [10.0, 1.0, 0.0, 5.0, 0.0, 8.0, 0.0]
    out = namesakes_together(names, scores)
    assert out[1] == NAMESAKE_SHARE * 10.0  # the private implementation of a public method
    assert out[2] == NAMESAKE_SHARE * 5.0  # Go's exported wrapper of its unexported worker
    assert out[4] == 0.0  # a name that is all underscore is nobody's namesake
    assert out[6] == 0.0  # dunders keep out of it


def test_the_async_twin_of_the_method_a_question_names_is_kept_close() -> None:
    lines = [
        "class Client:",
        "    def upload_file(self, path):",
        "        return self._post('/files', open(path, 'rb'))",
        "",
        "    def ping(self):",
        "        return self._get('/ping')",
        "",
        "class AsyncClient:",
        "    async def upload_file(self, path):",
        "        return await self._post('/files', await aopen(path))",
        "",
        "    async def ping(self):",
        "        return await self._get('/ping')",
    ]
    query = query_weights("upload a file from a path with open")
    units = code_units(lines, line_hits(line_terms(lines), query), query)
    score = {lines[u.lines[0]].strip(): u.score for u in units}
    assert (
        score["async def upload_file(self, path):"] >= NAMESAKE_SHARE * score["def upload_file(self, path):"]
    )
    assert score["async def upload_file(self, path):"] > score["async def ping(self):"]


def test_near_twins_score_close_to_the_best_of_them() -> None:
    from mcp_pruner_server.pruning.structure.code import TWIN_OWN_WEIGHT, TWIN_SHARE, twins_together

    names = ["initialized", "initialized_mut", "read_le8", "read_be8", "alpha0", "alpha1", "unrelated", None]
    scores = [10.0, 1.0, 8.0, 0.0, 0.0, 5.0, 0.0, 0.0]
    out = twins_together(names, scores)
    least = 1 - TWIN_OWN_WEIGHT
    assert out[1] >= least * TWIN_SHARE * 10.0  # one more short part
    assert out[3] >= least * TWIN_SHARE * 8.0  # one short part differs
    assert out[4] >= least * TWIN_SHARE * 5.0
    assert out[0] == 10.0
    assert out[6] == 0.0
    assert out[7] == 0.0


def test_names_differing_by_a_long_part_are_not_twins() -> None:
    from mcp_pruner_server.pruning.structure.code import twins_together

    assert twins_together(["parse_header", "parse_trailer"], [9.0, 0.0]) == [9.0, 0.0]


def test_raising_near_twins_stops_at_a_passed_deadline() -> None:
    from mcp_pruner_server.pruning.deadline import Deadline
    from mcp_pruner_server.pruning.errors import EngineTimeout
    from mcp_pruner_server.pruning.structure.code import twins_together

    passed = Deadline(at=0.0, timeout_ms=1, clock=lambda: 1.0)
    with pytest.raises(EngineTimeout):
        twins_together([f"read_le{k}" for k in range(10)], [1.0] * 10, deadline=passed)


def test_a_deadline_passing_in_a_ranking_pass_stops_code_units_before_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [f"def handler_{k}(request):" if k % 2 == 0 else "    return request.body" for k in range(40)]
    query = query_weights("what does the handler return")
    lh = line_hits(line_terms(lines), query)
    now = [0.0]
    deadline = Deadline(at=1.0, timeout_ms=1000, clock=lambda: now[0])

    def time_up_after(*args: Any, **kwargs: Any) -> Any:
        out = named_twins_first(*args, **kwargs)
        now[0] = 2.0
        return out

    monkeypatch.setattr(code, "named_twins_first", time_up_after)
    with pytest.raises(EngineTimeout):
        code_units(
            lines,
            lh,
            query,
            window_scores(query, lh),
            question="what does the handler return",
            deadline=deadline,
        )


def test_a_ruby_files_requires_are_imports_not_a_chunk_of_code_to_rank() -> None:
    lines = [
        "require 'json'",
        "require_relative '../lib/rate_limiter'",
        "",
        "LIMIT = RateLimiter.new(json: true)",
        "",
        "def fetch_quota(uri)",
        "  JSON.parse(uri.read)",
        "end",
    ]
    query = query_weights("where is the rate limiter json quota?")
    units = code_units(lines, line_hits(line_terms(lines), query), query, lang="ruby")
    assert sorted(u.lines for u in units) == [(3,), (5, 6, 7)]  # it was [(0, 1), (3,), (5, 6, 7)]
