"""OCaml interfaces (`.mli`) from the grammar: each `val` / `external` with its `(** … *)` doc,
above it or directly below it, inside the `module … : sig … end` that holds it."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _kept, blocks_of

MLI = """\
(** The module doc. *)

type t
(** A widget. *)

(** [grow w n] grows [w] by [n].
    Raises [Invalid_argument] if [n < 0]. *)
val grow : t -> int -> t

val shrink :
  t ->
  int ->
  t
(** [shrink w n] shrinks it. *)

module Ops : sig
  (** Adds. *)
  val add : t -> t -> t
end

module type S = sig
  val f : int -> int
  (** The next one's doc, not [f]'s: no blank line below it. *)
  val g : int -> int
end

external length : string -> int = "caml_ml_string_length"
"""


def test_an_mli_val_is_a_unit_with_its_doc_above_or_below_inside_its_signature() -> None:
    assert language_of("src/widget.mli") == "ocaml_interface"
    spans = [
        (b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(MLI, "ocaml_interface")
    ]
    assert spans == [
        (5, 7, 8, False, None, "grow"),
        (9, 9, 14, False, None, "shrink"),  # its doc below it, a blank line after
        (15, 15, 19, True, None, "Ops"),
        (16, 17, 18, False, 2, "add"),
        (20, 20, 25, True, None, "S"),
        (21, 21, 22, False, 4, "f"),
        (22, 23, 24, False, 4, "g"),
        (26, 26, 27, False, None, "length"),
    ]


def test_the_engine_keeps_the_val_asked_about_in_an_mli() -> None:
    filler = "".join(f"val pad{k} : int -> int\n(** Pads by {k}. *)\n\n" for k in range(40))
    text = filler + MLI + filler
    kept = _kept(text, "shrinks the widget", "src/widget.mli")
    assert all(line in kept for line in MLI.split("\n")[9:14])
    assert "val pad7 : int -> int" not in kept  # pruned, not a fail-open copy of the text


def test_a_failed_mli_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "ocaml_interface") is None
