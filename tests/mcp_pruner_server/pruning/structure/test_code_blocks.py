"""Finding code blocks by indentation and braces, for Python and brace languages alike."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.structure.code_blocks import (
    MAX_BRACE_LINE_CHARS,
    MODULE_LIKE_LINES,
    find_blocks,
    import_lines,
    is_header,
    signature_end,
)

PYTHON_SOURCE = """\
import os
from typing import (
    Any,
    Sequence,
)


class Store:
    \"\"\"A store.\"\"\"

    @deprecated(
        "use put()",
        category=Warning,
    )
    def save(
        self,
        key: str,
    ) -> None:
        self.items[key] = 1

        self.count += 1

    def load(self, key):
        def decode(raw):
            return raw.strip()
        return decode(self.items[key])
"""
PYTHON = PYTHON_SOURCE.split("\n")


def _span(lines: list[str], header_text: str) -> tuple[int, int]:
    block = next(b for b in find_blocks(lines) if lines[b.header].strip().startswith(header_text))
    return block.start, block.end


def test_a_python_method_owns_its_multiline_decorator_signature_and_blank_lines_inside() -> None:
    start, end = _span(PYTHON, "def save(")
    assert PYTHON[start].strip() == "@deprecated("
    assert PYTHON[end - 1].strip() == "self.count += 1"


def test_a_class_contains_its_methods_and_a_closure_names_its_function() -> None:
    blocks = find_blocks(PYTHON)
    store = next(b for b in blocks if PYTHON[b.header].startswith("class Store"))
    load = next(b for b in blocks if "def load" in PYTHON[b.header])
    decode = next(b for b in blocks if "def decode" in PYTHON[b.header])
    assert store.container
    assert not load.container
    assert blocks[load.parent] is store if load.parent is not None else False
    assert decode.parent is not None
    assert blocks[decode.parent] is load
    assert PYTHON[load.end - 1].strip() == "return decode(self.items[key])"


def test_brace_languages_close_their_blocks_on_the_closing_brace() -> None:
    source_text = """\
export async function loadUser(id: string): Promise<User> {
  const row = await db.get(id);
  return row;
}
func (s *Server) Serve(ctx context.Context) error {
\treturn nil
}
impl Parser {
    pub fn parse(&mut self) -> Result<Ast> {
        self.next()
    }
}
if (ready) {
  go();
}"""
    source = source_text.split("\n")
    spans = {source[b.header].strip(): (b.start, b.end) for b in find_blocks(source)}
    assert spans["export async function loadUser(id: string): Promise<User> {"] == (0, 4)
    assert spans["func (s *Server) Serve(ctx context.Context) error {"] == (4, 7)
    assert spans["impl Parser {"] == (7, 12)
    assert spans["pub fn parse(&mut self) -> Result<Ast> {"] == (8, 11)
    assert not any(k.startswith("if") for k in spans)
    assert not is_header("} else {")


def test_imports_are_found_whole_including_parenthesised_ones() -> None:
    assert import_lines(PYTHON) == [(0, 1), (1, 5)]


def test_braces_decide_where_a_block_ends_and_a_doc_comment_belongs_to_its_method() -> None:
    source = [
        "export class Command {",
        "  /**",
        "   * Add a sub-command.",
        "   */",
        "  addCommand(cmd) {",
        "    if (!cmd.name) {",
        "      throw new Error(`Command must have a name",
        "- specify it in the constructor`);",
        "    }",
        "    const s = '}'; // a brace in a string: }",
        "  }",
        "}",
    ]
    blocks = {source[b.header].strip(): b for b in find_blocks(source)}
    assert (blocks["export class Command {"].start, blocks["export class Command {"].end) == (0, 12)
    method = blocks["addCommand(cmd) {"]
    assert (method.start, method.end) == (1, 11)


def test_each_unclosed_brace_of_a_file_still_opens_a_block_by_indentation() -> None:
    # How long this takes (it used to be quadratic): benchmarks/bench_engine_bounds.py.
    lines = [f"function step{k}(x) {{" for k in range(3000)]
    blocks = find_blocks(lines)
    assert len(blocks) == 3000  # each still opens a block (by indentation: itself)


def test_a_minified_line_is_not_read_for_braces_and_indentation_decides() -> None:
    # A 2 MB line was read character by character (~0.5 s, with no look at the deadline); how
    # long it takes now: benchmarks/bench_engine_bounds.py.
    minified = "  " + "var a={b:1};" * 170_000
    assert len(minified) > MAX_BRACE_LINE_CHARS
    lines = ["function outer() {", minified, "}", "function after() {", "  return 2;", "}"]
    spans = {lines[b.header]: (b.start, b.end) for b in find_blocks(lines)}
    assert spans == {"function outer() {": (0, 3), "function after() {": (3, 6)}


def test_a_brace_header_signature_is_its_line_not_the_whole_block() -> None:
    lines = ["namespace absl {", "", "int f(int a,", "      int b) {", "  return a;", "}", "", "}  // absl"]
    outer, inner = find_blocks(lines)
    assert signature_end(lines, outer) == 1  # the namespace's `{` opens its body
    assert signature_end(lines, inner) == 4  # a parameter list over two lines, then `{`


def _spans(text: str) -> list[tuple[int, int, int]]:
    return [(b.start, b.header, b.end) for b in find_blocks(text.split("\n"))]


def test_an_end_keyword_closes_a_lua_julia_or_elixir_block_at_its_header_indentation() -> None:
    lua = "--- Joins two paths.\nlocal function join(a, b)\n  return a .. b\nend\n\nend_of = 3\n"
    assert _spans(lua) == [(0, 1, 4)]
    julia = 'function area(r)\n    pi * r^2\nend  # of area\nprintln("x")\n'
    assert _spans(julia) == [(0, 0, 3)]
    elixir = "defmodule Acme do\n  defp grow(x) do\n    x + 1\n  end\nend\n"
    assert _spans(elixir) == [(0, 0, 5), (1, 1, 4)]
    assert find_blocks(elixir.split("\n"))[0].container


def test_a_parameter_list_closed_at_the_header_indentation_is_followed_by_its_body() -> None:
    julia = "function scale(\n    x::T,\n    k::Real,\n) where {T}\n    y = k * x\n\n    return y\nend\n"
    assert _spans(julia) == [(0, 0, 8)]  # `) where {T}` and `)::T` are the signature's end
    assert _spans(julia.replace(") where {T}", ")::T")) == [(0, 0, 8)]
    call = "function f(a)\n    g(a)\nend\n\nh(\n    1,\n)\n    x\n"
    assert _spans(call) == [(0, 0, 3)]  # a `)` whose `(` the header did not open closes nothing


def test_a_variable_named_end_closes_nothing() -> None:
    python = "def f(a):\n    return a\nend = f(1)\n"
    assert _spans(python) == [(0, 0, 2)]


def test_kotlin_scala_and_swift_modifiers_and_keywords_open_definitions() -> None:
    for line in (
        "    suspend fun fetch(url: String): Int {",
        "fun <T> List<T>.second(): T =",
        "  private[data] def toNel: NonEmptyList[A] =",
        "    mutating func append(_ x: Int) {",
        "  defmacro guard(x) do",
    ):
        assert is_header(line), line
    assert not is_header("fun = compose(f, g)")


def test_an_allman_brace_after_a_perl_sub_opens_its_body_but_not_after_a_class() -> None:
    perl = "# Accepts one.\nsub accept\n{\n   my $self = shift;\n   return 1;\n}\n\nmy $x = 1;\n"
    assert _spans(perl) == [(0, 1, 6)]
    # a class opened so would be one unit of all its members, competing with them
    csharp = "public class Widget\n{\n    int size;\n    int Grow() {\n        return 1;\n    }\n}\n"
    assert _spans(csharp) == [(3, 3, 6)]


def test_fortran_procedures_open_blocks_closed_by_their_named_end() -> None:
    fortran = (
        "!> Doubles x.\npure elemental real(dp) function twice(x)\n  real(dp), intent(in) :: x\n"
        "  twice = 2 * x\nend function twice\nsubroutine hello()\n  print *, 'hi'\nend subroutine hello\n"
    )
    assert _spans(fortran) == [(0, 1, 5), (5, 5, 8)]


def test_fsharp_functions_and_members_open_definitions_but_a_bound_value_does_not() -> None:
    for line in ("let inline f (x: int) : int =", "    member this.Area(r) =", "let g x = async {"):
        assert is_header(line), line
    for line in ("let x = 5", "let mut total =", "let x: number = 5", "let private xs ="):
        assert not is_header(line), line


def test_a_powershell_filter_opens_a_definition_but_a_call_of_filter_does_not() -> None:
    powershell = "# Evens.\nFilter Get-Even {\n    if ($_ % 2 -eq 0) { $_ }\n}\n"
    powershell += "filter Skip-Null\n{\n    if ($null -ne $_) { $_ }\n}\n"
    assert _spans(powershell) == [(0, 1, 4), (4, 4, 8)]
    for line in ("filter(lambda x: x, xs)", "filter p xs = [x | x <- xs, p x]", "filter = {"):
        assert not is_header(line), line


def test_lisp_definitions_open_blocks_their_indented_body_closes() -> None:
    lisp = ';;; Squares.\n(defun square (x)\n  "X times X."\n  (* x x))\n\n(default-x)\n'
    lisp += "(defn- twice [x]\n  (* 2 x))\n"
    assert _spans(lisp) == [(0, 1, 4), (6, 6, 8)]


def _spans_in(text: str, lang: str | None) -> list[tuple[int, int, int]]:
    comment = by_name(lang).comment  # the language's record's comment lines
    return [(b.start, b.header, b.end) for b in find_blocks(text.split("\n"), comment=comment)]


def test_a_line_starting_with_a_bang_is_code_in_a_file_of_another_language_than_fortran() -> None:
    js = "!function () { window.ready = true; }();\nfunction b() {\n  return 2;\n}\n"
    assert _spans_in(js, "javascript") == [(1, 1, 4)]  # a bundle's `!function` is no doc of `b`
    shell = "! grep -q x conf || exit 1\nfunction b {\n  echo b\n}\n"
    assert _spans_in(shell, "bash") == [(1, 1, 4)]
    ipython = "def f():\n    x = 1\n!ls\n    return x\n"
    assert _spans_in(ipython, "python") == [(0, 0, 2)]  # a shell escape ends the block, as code does
    fortran = "! Squares x.\nfunction sq(x)\n  sq = x * x\n! the end\n  return\nend function sq\n"
    assert _spans_in(fortran, "fortran") == _spans_in(fortran, None) == [(0, 1, 6)]


def _outer_of(lines_long: int, comments_above: int) -> bool:
    """Whether a function `lines_long` lines from its header to its end, defining one, holds units."""
    body = ["  function inner {", "    echo in", "  }", *["  echo step"] * (lines_long - 5)]
    lines = [*["# about outer"] * comments_above, "function outer {", *body, "}"]
    assert len(lines) - comments_above == lines_long
    return find_blocks(lines)[0].container


def test_a_function_is_module_like_by_its_lines_from_its_header_as_a_parsers_is() -> None:
    assert _outer_of(MODULE_LIKE_LINES, 0)
    assert not _outer_of(MODULE_LIKE_LINES - 1, 0)
    assert not _outer_of(MODULE_LIKE_LINES - 1, 20)  # its comments are no code of it


def test_a_lisp_define_key_is_a_call_and_opens_no_block() -> None:
    elisp = '(define-key my-mode-map (kbd "C-c C-c")\n  #\'my-compile)\n\n'
    elisp += '(define-minor-mode my-mode\n  "Compile on save."\n  :lighter " My")\n'
    assert _spans(elisp) == [(3, 3, 6)]


def test_an_allman_brace_after_a_multiline_signature_opens_the_body() -> None:
    solidity = "function swap(uint a)\n    internal\n    returns (uint b)\n{\n    b = a;\n}\n\nuint x;\n"
    assert _spans(solidity) == [(0, 0, 6)]


def test_a_comment_or_directive_at_column_0_does_not_end_an_indented_body() -> None:
    fsharp = "let matchValue value =\n    match value with\n#if NET6\n    | 1 -> 2\n#endif\n    | _ -> 0\n"
    assert _spans(fsharp) == [(0, 0, 6)]
    python = "def f(x):\n    a = x\n# a = 2\n    return a\n# section\ng = 1\n"
    assert _spans(python) == [(0, 0, 4)]


def test_a_long_function_defining_functions_holds_them_as_a_container_does() -> None:
    body = "\n".join(f"    $x{k} = {k}" for k in range(160))
    script = f"function Invoke-All {{\n    function Get-One {{\n        1\n    }}\n{body}\n}}\n"
    outer, inner = find_blocks(script.split("\n"))
    assert outer.container
    assert not inner.container
    short = "function Invoke-All {\n    function Get-One {\n        1\n    }\n}\n"
    assert not find_blocks(short.split("\n"))[0].container


def test_an_unindented_fortran_body_ends_at_its_named_end_past_labels_and_contains() -> None:
    flat = (
        "pure subroutine put(x)\nreal :: x\nx = 1\nend subroutine put\nsubroutine two()\nend subroutine two\n"
    )
    assert _spans(flat) == [(0, 0, 4), (4, 4, 6)]
    labelled = (
        "  function f(x)\n    x = 1\n99 format (I3)\n    y = 2\n  contains\n    z = 3\n  end function f\n"
    )
    assert _spans(labelled) == [(0, 0, 7)]


def test_a_fortran_named_end_closes_its_procedure_at_any_indentation() -> None:
    # an `end function get_env` one column off its header still names what it closes
    skewed = (
        "    function get_env(name) result(value)\n    implicit none\n    character(len=*) :: name\n"
        "        value = name\n     end function get_env\n\n"
        "    subroutine other()\n    end subroutine other\n"
    )
    assert _spans(skewed) == [(0, 0, 5), (6, 6, 8)]
    # an end naming another procedure closes nothing here
    other = "  subroutine a()\n  x = 1\n   end subroutine b\n  y = 2\n  end subroutine a\n"
    assert _spans(other) == [(0, 0, 5)]


def test_a_fixed_form_fortran_procedure_ends_at_its_bare_end() -> None:
    fixed = (
        "      subroutine opaa0(l, v)\n!     potential\n      implicit real*8(a-h,o-z)\n      v = l\n"
        "      end\n\n      double precision function aainer(l)\n      aainer = l\n      end\n"
    )
    assert _spans(fixed) == [(0, 0, 5), (6, 6, 9)]


def test_fsharp_active_patterns_attributes_and_a_groovy_throws_clause() -> None:
    assert is_header("let (|Even|_|) (n: int) =")
    fsharp = '/// Old.\n[<Obsolete("no")>]\nstatic member From (v : int) =\n    v\n'
    assert _spans(fsharp) == [(0, 2, 4)]
    assert is_header("    G runScript(String script) throws IOException {")
