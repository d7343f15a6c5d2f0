"""Code blocks as scored units: body and name fields, call credit, namesakes."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import (
    BARE_CALL_WORDS,
    NAMESAKE_SHARE,
    called_credit,
    code_units,
    find_blocks,
    namesakes_together,
)
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks

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


CALLS_SOURCE = """\
def refresh_token(session):
    session.token = _rotate(session.secret)
    return _rotate(session.secret)


def _rotate(value):
    return _rotate(value[::-1])


class A:
    def close(self):
        pass


class B:
    def close(self):
        pass


def shutdown(conn):
    conn.close()
"""
CALLS = CALLS_SOURCE.split("\n")


def _bodies(lines: list[str]) -> list[list[int]]:
    return [list(range(b.start, b.end)) for b in find_blocks(lines) if not b.container]


def test_a_function_called_from_a_relevant_line_gets_that_lines_score() -> None:
    scores = [0.0] * len(CALLS)
    scores[1] = 2.0  # the line of refresh_token that calls _rotate
    credit = called_credit(CALLS, _bodies(CALLS), scores)
    assert credit[1] == 2.0  # _rotate
    assert credit[0] == 0.0  # refresh_token is called from nowhere


def test_a_recursive_call_is_no_evidence_and_a_shared_name_shares_the_credit() -> None:
    scores = [0.0] * len(CALLS)
    scores[CALLS.index("    return _rotate(value[::-1])")] = 5.0
    scores[CALLS.index("    conn.close()")] = 3.0
    credit = called_credit(CALLS, _bodies(CALLS), scores)
    assert credit[1] == 0.0
    assert credit[2] == credit[3] == 1.5  # A.close and B.close


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


RUBY_CALLS = [
    "def install_template(name)",
    "  textif name, @textif",  # a call without parentheses; `@textif` is a variable
    "  # textif is described in the README",  # prose names no call
    "end",
    "",
    "def textif(name, value)",
    "  File.write(name, value)",
    "end",
]
BASH_CALLS = [
    "install_all() {",
    '    log_step "installing"; copy-files "$dst" "$log_step"',
    "}",
    "",
    "log_step() {",
    '    echo "$1"',
    "}",
    "",
    "copy-files() {",
    '    cp -r "$1" .',
    "}",
]


def _credit(lines: list[str], relevant: int, lang: str, *, bare: bool = True) -> list[float]:
    """Per function the parser finds in `lines` (`lang`): its credit when line `relevant` scores 2."""
    blocks = syntax_blocks("\n".join(lines), len(lines), lang)
    assert blocks is not None
    scores = [0.0] * len(lines)
    scores[relevant] = 2.0
    bodies = [range(b.start, b.end) for b in blocks]
    calls = BARE_CALL_WORDS[lang] if bare else None
    return called_credit(lines, bodies, scores, names=[b.name for b in blocks], bare_calls=calls)


def test_a_ruby_or_bash_call_without_parentheses_gets_the_lines_score() -> None:
    assert _credit(RUBY_CALLS, 1, "ruby") == [0.0, 2.0]  # textif
    assert _credit(BASH_CALLS, 1, "bash") == [0.0, 2.0, 2.0]  # log_step, copy-files
    assert _credit(RUBY_CALLS, 1, "ruby", bare=False) == [0.0, 0.0]  # elsewhere a call has its `(`


def test_a_comment_or_a_variable_named_like_a_function_is_no_call() -> None:
    assert _credit(RUBY_CALLS, 2, "ruby") == [0.0, 0.0]
    assert _credit(["@textif = 1", "$textif", *RUBY_CALLS], 0, "ruby")[1] == 0.0
    assert _credit(["@textif = 1", "$textif", *RUBY_CALLS], 1, "ruby")[1] == 0.0
    assert _credit(['echo "$log_step ${copy}"', *BASH_CALLS], 0, "bash") == [0.0, 0.0, 0.0]
    assert _credit(["# see textif(x)", *RUBY_CALLS], 0, "ruby")[1] == 2.0  # as `name(` in any comment


def test_the_engine_passes_the_language_that_lets_calls_omit_parentheses() -> None:
    lines = [
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
    query = query_weights("how is the page header rendered?")
    lh = line_hits(line_terms(lines), query)
    for lang, credited in (("ruby", True), (None, False)):
        units = code_units(lines, lh, query, window_scores(query, lh), lang=lang)
        banner = next(u for u in units if lines[u.lines[0]].startswith("def draw_banner"))
        assert (banner.score > 0.0) is credited


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
    from mcp_pruner_server.pruning.structure.code import TWIN_SHARE, twins_together

    names = ["initialized", "initialized_mut", "read_le8", "read_be8", "alpha0", "alpha1", "unrelated", None]
    scores = [10.0, 1.0, 8.0, 0.0, 0.0, 5.0, 0.0, 0.0]
    out = twins_together(names, scores)
    assert out[1] == TWIN_SHARE * 10.0  # one more short part
    assert out[3] == TWIN_SHARE * 8.0  # one short part differs
    assert out[4] == TWIN_SHARE * 5.0
    assert out[0] == 10.0
    assert out[6] == 0.0
    assert out[7] == 0.0


def test_names_differing_by_a_long_part_are_not_twins() -> None:
    from mcp_pruner_server.pruning.structure.code import twins_together

    assert twins_together(["parse_header", "parse_trailer"], [9.0, 0.0]) == [9.0, 0.0]
