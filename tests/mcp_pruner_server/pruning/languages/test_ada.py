"""Ada from its path and its lines, and its units from the parser: a package body's subprograms,
a specification's declarations with their comments, a record type over several lines."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.languages import language_of
from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of

BODY = """\
with Ada.Text_IO; use Ada.Text_IO;

package body Stacks is

   procedure Push (S : in out Stack; Item : Integer) is
   begin
      S.Top := S.Top + 1;
      S.Items (S.Top) := Item;
   end Push;

   function Pop (S : in out Stack) return Integer is
      Result : Integer;
   begin
      Result := S.Items (S.Top);
      S.Top := S.Top - 1;
      return Result;
   end Pop;

   function Is_Empty (S : Stack) return Boolean is (S.Top = 0);

   task body Worker is
   begin
      null;
   end Worker;
end Stacks;
"""

SPEC = """\
package Stacks is
   type Stack is private;
   --  Pushes an item.
   procedure Push (S : in out Stack; Item : Integer);
   function Pop (S : in out Stack) return Integer;
private
   type Stack is record
      Top : Natural := 0;
   end record;
end Stacks;
"""


def _spans(text: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, "ada")]


def test_ada_is_known_by_its_extensions_and_by_its_lines_without_a_path() -> None:
    assert language_of("src/stacks.adb") == language_of("src/stacks.ads") == "ada"
    assert language_of(None, BODY.splitlines()) == "ada"


def test_an_ada_package_body_holds_its_subprograms_and_tasks_as_units() -> None:
    assert _spans(BODY) == [
        (2, 2, 25, True, None, "Stacks"),
        (4, 4, 9, False, 0, "Push"),
        (10, 10, 17, False, 0, "Pop"),
        (18, 18, 19, False, 0, "Is_Empty"),  # an expression function
        (20, 20, 24, False, 0, "Worker"),
    ]


def test_an_ada_specification_s_declarations_are_units_with_their_comments() -> None:
    assert _spans(SPEC) == [
        (0, 0, 10, True, None, "Stacks"),
        (2, 3, 4, False, 0, "Push"),
        (4, 4, 5, False, 0, "Pop"),
        (6, 6, 9, False, 0, "Stack"),  # a record type over several lines; `is private` is none
    ]
