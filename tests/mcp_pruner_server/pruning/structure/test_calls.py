"""Calls between definitions: the credit a definition gets from the relevant lines calling it."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.calls import called_credit, unit_names
from mcp_pruner_server.pruning.structure.code_blocks import find_blocks
from mcp_pruner_server.pruning.structure.ml_code import ocaml_code
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks

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
    return called_credit(lines, bodies, scores, names=[b.name for b in blocks], lang=lang if bare else None)


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


OCAML_CALLS = [
    "let basename = generic_basename is_dir_sep",  # a call has no parentheses
    "let label = Tree.rotate ~rotate:1 (* rotate the tree *)",  # qualified; a label names none
    "(* generic_basename and then",
    "   rotate in prose (* nested *) rotate again *) let x = 1",
    "",
    "let generic_basename is_dir_sep name =",
    "  String.sub name 0 1",
    "",
    "let rotate t =",
    "  t",
]


def test_an_ocaml_call_without_parentheses_gets_the_lines_score() -> None:
    assert _credit(OCAML_CALLS, 0, "ocaml")[-2:] == [2.0, 0.0]
    assert _credit(OCAML_CALLS, 1, "ocaml")[-2:] == [0.0, 2.0]  # `Tree.rotate`


def test_an_ocaml_comment_or_label_names_no_call() -> None:
    assert _credit(OCAML_CALLS, 2, "ocaml")[-2:] == [0.0, 0.0]
    assert _credit(OCAML_CALLS, 3, "ocaml")[-2:] == [0.0, 0.0]  # still inside the comment
    assert _credit(["let f x = g ~rotate x", *OCAML_CALLS], 0, "ocaml")[-2:] == [0.0, 0.0]


def test_ocaml_code_blanks_comments_across_lines_and_strings_but_not_type_variables() -> None:
    code = ocaml_code(['let s = "(*" ^ x (* a (* b *)', "c *) y", "let f : 'a -> 'b = g"])
    assert code[0].split() == ["let", "s", "=", "^", "x"]
    assert code[1].split() == ["y"]
    assert code[2] == "let f : 'a -> 'b = g"


FSHARP_CALLS = [
    "let renderHeader (page: Page) =",
    "    Banner.draw page.Title // then draw the rest",  # qualified, without parentheses
    "    (* draw is described",
    "       in the README *) ()",
    "",
    "let draw (text: string) =",
    '    printfn "%s" text',
]
FORTRAN_CALLS = [
    "module energies",
    "  type :: model_t",
    "  contains",
    "    procedure :: get_energy",  # a type's binding names its procedure bare
    "  end type model_t",
    "contains",
    "  subroutine get_energy(self, e)",
    "    call finalize",
    "  end subroutine get_energy",
    "  subroutine finalize",
    "    ! get_energy is described in the README",  # prose names no call
    "  end subroutine finalize",
    "end module energies",
]


def test_fsharp_and_fortran_calls_without_parentheses_get_the_lines_score() -> None:
    assert _credit(FSHARP_CALLS, 1, "fsharp") == [0.0, 2.0]
    assert _credit(FORTRAN_CALLS, 3, "fortran")[2:] == [2.0, 0.0]  # after the module and the type
    assert _credit(FORTRAN_CALLS, 7, "fortran")[2:] == [0.0, 2.0]  # `call finalize`


def test_an_fsharp_or_fortran_comment_names_no_call() -> None:
    assert _credit(FSHARP_CALLS, 2, "fsharp") == [0.0, 0.0]
    assert _credit(FSHARP_CALLS, 3, "fsharp") == [0.0, 0.0]  # still inside the comment
    assert _credit(FORTRAN_CALLS, 10, "fortran")[2:] == [0.0, 0.0]


# FORTRAN 77: a `C`, `c` or `*` in column 1 makes the line a comment; code starts at column 7.
FIXED_FORM_CALLS = [
    "      SUBROUTINE SOLVE(A, N)",
    "C     Scale the rows first, then factor",
    "c     (factor is described in the manual)",
    "*     factor scale",
    "      CALL factor(A, N)",
    "      END",
    "      SUBROUTINE factor(A, N)",
    "      END",
    "      SUBROUTINE scale(A, N)",
    "      END",
]


def test_a_fixed_form_fortran_comment_line_names_no_call() -> None:
    bodies = [range(0, 6), range(6, 8), range(8, 10)]
    names = ["SOLVE", "factor", "scale"]

    def credit(relevant: int) -> list[float]:
        scores = [0.0] * len(FIXED_FORM_CALLS)
        scores[relevant] = 2.0
        return called_credit(FIXED_FORM_CALLS, bodies, scores, names=names, lang="fortran")

    assert credit(1) == credit(2) == credit(3) == [0.0, 0.0, 0.0]
    assert credit(4) == [0.0, 2.0, 0.0]
    # Free form writes statements from column 1, a `c` variable's among them.
    free = ["c = 1", "call factor(a, n)", "contains", *FIXED_FORM_CALLS[6:]]
    scores = [2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0]
    assert called_credit(
        free, [range(3, 5), range(5, 7)], scores, names=["factor", "scale"], lang="fortran"
    ) == [
        2.0,
        0.0,
    ]


def test_a_fortran_bang_in_a_string_starts_no_comment() -> None:
    lines = [
        "subroutine greet",
        "  print *, 'Hello!', \"a!b\", 'it''s!'; call finalize  ! then get_energy",
        "end subroutine greet",
        "subroutine finalize",
        "end subroutine finalize",
        "subroutine get_energy",
        "end subroutine get_energy",
    ]
    assert _credit(lines, 1, "fortran") == [0.0, 2.0, 0.0]


def test_a_fortran_call_names_its_procedure_in_any_case() -> None:
    lines = [line.replace("call finalize", "CALL Finalize") for line in FORTRAN_CALLS]
    assert _credit(lines, 7, "fortran")[2:] == [0.0, 2.0]
    assert _credit(lines, 6, "fortran")[2:] == [0.0, 0.0]  # its own header is no call


def test_a_fortran_hash_is_text_but_a_preprocessor_line_holds_no_call() -> None:
    lines = [
        "subroutine report",
        "  print *, 'item # 1'; call finalize",
        "#include get_energy",
        "end subroutine report",
        "subroutine finalize",
        "end subroutine finalize",
        "subroutine get_energy",
        "end subroutine get_energy",
    ]
    bodies = [range(0, 4), range(4, 6), range(6, 8)]
    names = ["report", "finalize", "get_energy"]

    def credit(relevant: int) -> list[float]:
        scores = [0.0] * len(lines)
        scores[relevant] = 2.0
        return called_credit(lines, bodies, scores, names=names, lang="fortran")

    assert credit(1) == [0.0, 2.0, 0.0]
    assert credit(2) == [0.0, 0.0, 0.0]


def test_fsharp_multiplication_operator_opens_no_comment() -> None:
    lines = ["let product xs = List.fold (*) 1 xs", "let total = Banner.draw xs", "let draw x =", "    x"]
    assert ocaml_code(lines, fsharp=True)[1] == lines[1]
    assert _credit(lines, 1, "fsharp")[-1] == 2.0
    assert ocaml_code(["let x = (*) still a comment", "y *) z"])[1].split() == ["z"]  # OCaml's `(*)`


def test_an_fsharp_line_comment_or_triple_quoted_string_hides_no_code_and_names_no_call() -> None:
    lines = [
        "let render page =",
        "    // the (* of OCaml is no comment here",
        '    let doc = """A banner',
        "       (* drawn by draw *)",
        '       in colour"""',
        "    Banner.draw page doc",
        "let draw x =",
        "    x",
    ]
    code = ocaml_code(lines, fsharp=True)
    assert [c.split() for c in code[1:5]] == [[], ["let", "doc", "="], [], []]
    assert code[5] == lines[5]
    assert _credit(lines, 5, "fsharp")[-1] == 2.0
    assert _credit(lines, 3, "fsharp")[-1] == 0.0
    assert ocaml_code(["let x = 1 // (* an OCaml comment", "y *) z"])[1].split() == ["z"]


SCALA_CALLS = [
    "object Trees {",
    "  def build[A](xs: Seq[A]): Tree[A] = fromOrdered[A](xs.iterator, xs.size).forced",
    "  def fromOrdered[A](xs: Iterator[A], size: Int): Tree[A] = ???",
    "  def forced: Tree[Nothing] = ???",
    "}",
]


def test_a_scala_call_with_type_arguments_or_without_parentheses_gets_the_lines_score() -> None:
    assert _credit(SCALA_CALLS, 1, "scala") == [0.0, 0.0, 2.0, 2.0]  # fromOrdered[A](, `.forced`
    assert _credit(SCALA_CALLS, 1, "scala", bare=False) == [0.0, 0.0, 0.0, 0.0]  # `name(` only


def test_a_units_name_is_read_after_the_keyword_of_each_language_without_a_grammar_here() -> None:
    headers = {
        "Function Set-Item($x) {": "Set",  # PowerShell: up to the `-`, as `function` always was
        "let rec fib n =": "fib",  # F#
        "    member this.Area(r) =": "Area",
        "  modifier onlyOwner() {": "onlyOwner",  # Solidity
        "module subroutine relax(x)": "relax",  # Fortran: a keyword is no name
        "area <- function(r) {": "area",  # R
        "function M.join(a, b)": "join",  # Lua: the qualifier's last part
        "def self.build(attrs)": "build",  # Ruby
        "func (s *Server) Serve(l net.Listener) error {": "Serve",  # Go's receiver
        "fun <T> List<T>.second(): T {": "second",  # Kotlin
        "  defp grow(x) do": "grow",  # Elixir
    }
    lines = [line for header in headers for line in (header, "    body()", "")]
    bodies = [range(3 * k, 3 * k + 2) for k in range(len(headers))]
    assert unit_names(lines, bodies) == list(headers.values())


def test_an_fsharp_verbatim_string_ends_at_its_quote_and_an_interpolated_ones_holes_are_code() -> None:
    lines = [
        'let load file = Path.Combine(@"C:\\data\\", file) |> normalize "utf-8"',  # `\` escapes nothing
        'let caption page = $"{render page} of {page.Count}"',  # a call in a hole
        'let quoted = @"say ""normalize"" (* render *)"',  # `""` is a quote; no comment opens
        "let normalize path =",
        "    path",
        "let render page =",
        "    page",
    ]
    code = ocaml_code(lines, fsharp=True)
    assert code[0].split() == ["let", "load", "file", "=", "Path.Combine(", ",", "file)", "|>", "normalize"]
    assert code[1].split() == ["let", "caption", "page", "=", "render", "page", "page.Count"]
    assert code[2].split() == ["let", "quoted", "="]
    assert _credit(lines, 0, "fsharp")[-2:] == [2.0, 0.0]
    assert _credit(lines, 1, "fsharp")[-2:] == [0.0, 2.0]
    assert _credit(lines, 2, "fsharp")[-2:] == [0.0, 0.0]


def test_braces_in_a_plain_fsharp_string_are_text_not_holes() -> None:
    lines = ['let price = "${render page}" + $"{page.Count}$"', "let render page =", "    page"]
    assert ocaml_code(lines, fsharp=True)[0].split() == ["let", "price", "=", "+", "page.Count"]
    assert _credit(lines, 0, "fsharp")[-1] == 0.0
