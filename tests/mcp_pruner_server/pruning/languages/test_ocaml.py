"""Units from the parser in OCaml: `let`s over several lines, modules of `struct`s and classes of
`object`s holding them, named as they bind (its definitions query)."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of

OCAML = """\
module StringMap = Map.Make (String)

module Widget = struct
  let grow w step =
    w + step

  let size = 1
end

class counter = object
  method bump n =
    n + 1
end
"""


def test_ocaml_modules_of_structs_and_classes_of_objects_hold_their_lets_and_methods() -> None:
    found = [(b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(OCAML, "ocaml")]
    assert found == [
        (2, 8, True, None, "Widget"),
        (3, 5, False, 0, "grow"),  # `let size = 1`, one line, is left to the chunks
        (9, 13, True, None, "counter"),
        (10, 12, False, 2, "bump"),
    ]


def test_a_module_made_by_a_functor_holds_nothing_and_is_no_container() -> None:
    assert blocks_of("module StringMap = Map.Make (String)\n", "ocaml") == []
