"""Twins raised by `twins_together` keep the order of their own scores (no tie for the fill to
break by size)."""

from mcp_pruner_server.pruning.structure.code import TWIN_SHARE, twins_together


def test_a_family_of_raised_twins_is_ordered_by_own_score() -> None:
    # A Fortran package's procedures: one matches the question, one a little, one not at all.
    names = ["rch_rp", "rch_cf", "rch_fc", "rch_da"]
    out = twins_together(names, [10.0, 2.0, 0.0, 0.0])
    assert out[0] == 10.0
    assert out[1] > out[2] == out[3] > 0.0  # the one with the question's words first
    assert out[1] <= TWIN_SHARE * 10.0


def test_a_twin_scoring_above_the_share_keeps_its_score() -> None:
    out = twins_together(["read_le8", "read_be8"], [10.0, 7.0])
    assert out == [10.0, 7.0]


def test_a_twin_at_the_share_gets_all_of_it() -> None:
    out = twins_together(["alpha0", "alpha1"], [10.0, TWIN_SHARE * 10.0])
    assert out[1] == TWIN_SHARE * 10.0


def test_a_pair_and_numbered_twins_share_in_full() -> None:
    assert twins_together(["allocate", "allocate_1"], [0.0, 10.0]) == [TWIN_SHARE * 10.0, 10.0]
    out = twins_together(["rectdiff1", "rectdiff2", "rectdiff_rec"], [0.0, 10.0, 0.0])
    assert out[0] == TWIN_SHARE * 10.0  # a number, not a word, tells it from its twin
    assert out[2] < out[0]
