"""A number glued to a word of a Fortran procedure's name (`gf_unpack6`, `grib1`, `sect3`) is said by
the question after that word, or after one word more ("Unpack Section 6"): of a family documented
alike, the one the question numbers is kept."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import query_weights
from mcp_pruner_server.pruning.structure.fortran_numbers import numbered_hits, numbered_phrases
from tests.mcp_pruner_server.pruning.structure.test_fortran_unit_scores import _module, _procedure
from tests.mcp_pruner_server.pruning.structure.test_syntax import _kept


def _hits(name: str | None, question: str) -> set[str]:
    return set(numbered_hits(name, numbered_phrases(query_weights(question))))


def test_the_number_after_the_names_word_or_one_word_more_names_it() -> None:
    question = "Unpack Section 6 of a message, starting at octet 5 of that Section."
    assert {"unpack_section_6", "section_6"} <= _hits("gf_unpack6", question)
    assert _hits("gf_unpack5", question) == set()  # "octet 5" numbers no unpacking
    assert _hits("read_sect6", question) >= {"section_6"}  # `sect` cuts "section" short
    assert _hits("convert_grib1", "Convert a grib1 message") == {"grib_1"}
    assert _hits("getgb2p", "Find a GRIB2 message") == set()  # the number is inside the part
    assert _hits("gf_unpack6", "Unpack the bitmap") == _hits(None, question) == set()


def test_of_procedures_documented_alike_the_one_the_question_numbers_is_kept() -> None:
    text = _module(
        "".join(
            _procedure(
                f"gf_unpack{k}", f"Unpack Section {k} of a GRIB2 message, the data of that Section", "real"
            )
            for k in (3, 4, 5)
        )
        + _procedure("gf_unpack6", "", "real")  # its doc is the question
        + _procedure("gf_unpack7", "Unpack Section 7 of a GRIB2 message, the data of that Section", "real")
    )
    kept = _kept(text, "Unpack Section 6 of a GRIB2 message, starting at octet 6 of that Section", "g2.F90")
    assert "  subroutine gf_unpack6(self, val)" in kept
