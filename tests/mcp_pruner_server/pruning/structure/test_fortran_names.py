"""The kinds and ranks a Fortran procedure's name carries in its suffixes (`_dp`, `_i8`, `_2d`), as
a question spells them out ("double precision", "eight byte integer", "2-d arrays")."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.scoring import query_weights
from mcp_pruner_server.pruning.structure.fortran_names import (
    abbreviated_hits,
    kind_hits,
    name_kinds,
    question_kinds,
    question_words,
)


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("Retrieve TOML value as double precision float", {"real8"}),
        ("Set a single-precision real", {"real4"}),
        ("Retrieve TOML value as eight byte integer", {"int8"}),
        ("Read a 64-bit integer", {"int8"}),
        ("Convert to integer(kind=4) or real*8", {"int4", "real8"}),
        ("Sort an int16 array", {"int2"}),
        ("returns one of the following (for 2-d arrays)", {"rank2"}),
        ("For use with 2D data, then 3d", {"rank2", "rank3"}),
        ("a two-dimensional field of rank-1 vectors", {"rank2", "rank1"}),
        ("Add a new entry to the dictionary", set()),
        ("a single value, twice the double of it", set()),
    ],
)
def test_a_question_spells_kinds_and_ranks_in_words(question: str, kinds: set[str]) -> None:
    assert question_kinds(question).keys() == kinds


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("get_value_float_dp", {"real8"}),
        ("get_value_integer_i8", {"int8"}),
        ("sort_INT64", {"int8"}),
        ("add_r4", {"real4"}),
        ("GDSWZD_2D_ARRAY", {"rank2"}),
        ("linterp_2D", {"rank2"}),
        ("PDLIB_exchange1Dreal_zero", {"rank1"}),
        ("find_nearest_loc_2d_1d", {"rank2", "rank1"}),
        ("getNextToken_complexR1", {"rank1"}),
        ("TWrappedIntR2", {"rank2"}),
        ("get_r8", {"real8"}),
        ("g2_gbytec8", set()),  # a digit after a name is no kind
        ("init_grib1", set()),
        ("update_dpd", set()),  # `dp` only as a whole part of the name
        ("dispersion3", set()),
    ],
)
def test_a_name_carries_kinds_and_ranks_in_its_suffixes(name: str, kinds: set[str]) -> None:
    assert name_kinds(name) == kinds


def test_the_specific_a_question_spells_out_is_named_by_the_terms_that_spell_its_kind() -> None:
    query = query_weights("Retrieve TOML value as double precision float")
    assert {"doubl", "precision", "double_precision"} <= kind_hits(
        "get_value_float_dp", question_words(query)
    ).keys()
    assert (
        kind_hits("get_value_float_sp", question_words(query))
        == kind_hits("get_value", question_words(query))
        == kind_hits(None, question_words(query))
        == {}
    )
    query = query_weights("Decodes the grid and returns one of the following (for 2-d arrays)")
    assert {"2_d", "2_d_arrays"} <= kind_hits("GDSWZD_2D_ARRAY", question_words(query)).keys()
    assert (
        kind_hits("get_value_float_dp", question_words(query_weights("Retrieve TOML value as float"))) == {}
    )


def test_a_procedure_name_abbreviating_a_question_word_by_two_letters_names_it() -> None:
    question = "Vector rotation fields for rotated equidistant cylindrical grids"
    query = query_weights(question)
    opening = "  SUBROUTINE ROT_EQUID_CYLIND_VECT_ROT(RLON, &"
    hits = abbreviated_hits("ROT_EQUID_CYLIND_VECT_ROT", opening, question_words(query))
    assert {"vector", "equidistant", "cylindrical"} <= hits.keys()
    assert (
        abbreviated_hits("ve_rot", "subroutine ve_rot(x)", question_words(query)) == {}
    )  # `ve` is too short


def test_a_procedure_name_writing_a_question_word_without_its_vowels_names_it() -> None:
    question = "Compute linear interpolation weights for a diurnal forcing"
    query = query_weights(question)
    hits = abbreviated_hits("cmp_time_wts", "subroutine cmp_time_wts(this, w1, w2)", question_words(query))
    assert {"comput", "weight"} <= hits.keys()
    # a part with a vowel inside is a word of its own, not a skeleton (`get` is no "greatest")
    question = "the greatest common divisor"
    assert (
        abbreviated_hits("get_gcd", "function get_gcd(a, b)", question_words(query_weights(question))) == {}
    )


def test_a_derived_type_name_abbreviating_the_question_words_gains_nothing() -> None:
    question = "Initializes a rotated equidistant cylindrical grid"
    query = query_weights(question)
    assert (
        abbreviated_hits(
            "rot_equid_grid", "  type, extends(ip_grid) :: rot_equid_grid", question_words(query)
        )
        == {}
    )
    assert abbreviated_hits("rot_equid_grid", "type :: rot_equid_grid", question_words(query)) == {}
    assert "equidistant" in abbreviated_hits(
        "make_equid", "type(grid) function make_equid(n)", question_words(query)
    )


def test_a_name_glued_of_a_question_word_and_another_it_cuts_short_names_that_one() -> None:
    words = question_words(query_weights("Gets element A(i,j) of matrix A for any pair (i,j)."))
    assert "element" in abbreviated_hits("getelm", "function getelm(i, j, a)", words)
    assert abbreviated_hits("setelm", "function setelm(i, j, a)", words) == {}  # "set" is not said
    words = question_words(query_weights("Add a local use section to a message"))
    assert "local" in abbreviated_hits("addlocal", "subroutine addlocal(c)", words)
    assert abbreviated_hits("addgrid", "subroutine addgrid(c)", words) == {}
