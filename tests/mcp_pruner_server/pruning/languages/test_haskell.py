"""Haskell units from its grammar: a function is its type signature and every equation of it."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of

EQUATIONS_APART = """\
module M where

count :: Int -> Int
count 0 = 0

count n
  | n < 0 = 0
  | otherwise = count (n - 1)
  where
    step = 1

other :: Int
other = 1
"""


def test_equations_apart_by_blank_lines_are_one_function_with_their_guards_and_where() -> None:
    spans = [(b.start, b.header, b.end, b.name) for b in blocks_of(EQUATIONS_APART, "haskell")]
    assert spans == [(2, 2, 10, "count"), (11, 11, 13, "other")]


def test_an_equation_of_another_name_between_keeps_the_functions_apart() -> None:
    text = EQUATIONS_APART.replace("count n\n", "other' = 2\n\ncount n\n")
    names = [b.name for b in blocks_of(text, "haskell")]
    assert names == ["count", "other'", "count", "other"]


SIGNATURE_APART = """\
module M where

-- | Components.
components
  :: Ord key
  => [key]
      -- ^ the keys
  -> [[key]]

components ks
  = go ks  -- the first equation
components [] = []

go :: [k] -> [[k]]
go = map pure
"""


def test_a_signature_apart_heads_its_equations_and_a_comment_ending_one_does_not_part_them() -> None:
    blocks = blocks_of(SIGNATURE_APART, "haskell")
    assert [(b.start, b.header, b.end, b.name) for b in blocks] == [
        (2, 3, 12, "components"),  # its doc, its signature, both equations
        (13, 13, 15, "go"),
    ]
    assert blocks[0].sig_end == 8  # the signature alone is its head when a blank line parts them
