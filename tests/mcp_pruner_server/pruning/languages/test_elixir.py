"""Elixir units from its grammar: its `def…` calls with their `@doc` / `@spec` / `@impl`, inside the
`defmodule` that holds them, up to the call's `end` (`rescue` clauses included)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, _kept, blocks_of

ELIXIR = """\
defmodule Acme.Widget do
  @moduledoc "A widget."

  @type t :: %{size: integer}

  # Grows it.
  @doc since: "1.6.0"
  @spec grow(t, integer) ::
          t
  def grow(w, step)
      when is_integer(step) do
    add(w, step)
  end

  defp add(w, n), do: %{w | size: w.size + n}

  @doc \"\"\"
  Parses the text.
  \"\"\"
  @spec parse(String.t()) :: {:ok, integer} | :error
  def parse(text) do
    {:ok, String.to_integer(text)}
  rescue
    ArgumentError -> :error
  end

  defmodule Shape do
    defmacro area(w) do
      quote do: unquote(w).size
    end
  end
end
"""


def _spans(text: str, lang: str = "elixir") -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


def test_an_elixir_function_is_its_def_call_with_the_attributes_above_inside_its_module() -> None:
    assert _spans(ELIXIR) == [
        (0, 0, 32, True, None, "Acme.Widget"),
        (5, 9, 13, False, 0, "grow"),  # its comment, `@doc`, a `@spec` over two lines; not `@type`
        (14, 14, 15, False, 0, "add"),  # a one-line `, do:` clause is a unit too
        (19, 20, 25, False, 0, "parse"),  # its `rescue` is part of it; its heredoc `@doc` a chunk
        (26, 26, 31, True, 0, "Shape"),
        (27, 27, 30, False, 4, "area"),
    ]
    # the head runs to the line its `do` opens: a `when` guard on the next line is in it
    assert [b.sig_end for b in blocks_of(ELIXIR, "elixir")][1:4] == [11, 15, 21]


def test_the_engine_keeps_the_whole_elixir_function_with_its_rescue_clause() -> None:
    filler = "".join(f"  def pad{k}(x) do\n    x + {k}\n  end\n\n" for k in range(30))
    text = ELIXIR.replace("  defmodule Shape", filler + "  defmodule Shape")
    kept = _kept(text, "parse the text as an integer", "lib/acme/widget.ex")
    assert all(line in kept for line in ELIXIR.split("\n")[20:25])
    assert "  def pad7(x) do" not in kept  # pruned, not a fail-open copy of the text


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "elixir") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_elixir_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(ELIXIR, "elixir", keep)
