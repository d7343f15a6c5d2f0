"""Identifier-aware terms: camelCase, snake_case, light stemming, synonyms."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import SYNONYM_WEIGHT, query_weights
from mcp_pruner_server.pruning.terms import (
    ABBREVIATIONS,
    MAX_CACHED_LINE_CHARS,
    SYNONYMS,
    _cached_line_terms,
    identifiers,
    line_terms,
    stem,
    terms,
)


def test_snake_and_camel_case_identifiers_give_the_same_parts_and_the_same_whole() -> None:
    assert (
        terms("store_file_breaks")
        == terms("storeFileBreaks")
        == ["stor", "fil", "break", "store_file_breaks"]
    )
    assert terms("HTTPServer") == ["http", "serv", "http_server"]


def test_the_stemmer_joins_inflections_and_leaves_non_plurals_alone() -> None:
    assert stem("saved") == stem("save") == stem("saving")
    assert stem("processes") == stem("process")
    assert stem("cancelled") == stem("cancel")
    assert stem("called") == stem("call")
    assert stem("breakpoints") == "breakpoint"
    assert stem("status") == "status"


def test_a_y_ending_and_its_ies_plural_share_a_stem() -> None:
    assert stem("retry") == stem("retries") == stem("retried")
    assert stem("cookie") == stem("cookies")
    assert stem("key") == stem("keys") == "key"


def test_words_ending_in_ly_keep_their_letters() -> None:
    assert stem("apply") == stem("applied")
    assert stem("reply") != "rep"


def test_an_adverb_meets_the_adjective_code_names_things_with() -> None:
    assert stem("currently") == stem("current")
    assert stem("recursively") == stem("recursive")
    assert stem("globally") == stem("global")
    assert stem("exactly") == stem("exact")
    assert stem("family") == stem("families")  # not an adverb
    assert stem("assembly") != stem("assemble")


def test_an_acronym_plural_is_the_acronym() -> None:
    assert terms("CPUs") == terms("cpu") == ["cpu"]
    assert terms("getPIDs") == ["pid", "get_pid"]


def test_an_acronym_made_a_verb_is_the_acronym() -> None:
    assert terms("HUPing") == terms("HUPed") == terms("hup") == ["hup"]
    assert terms("XORed") == ["xor"]


def test_stopwords_carry_no_focus() -> None:
    assert terms("Why does the value returned by it fail?") == ["fail"]


def test_a_british_ise_verb_meets_its_ize_spelling() -> None:
    for british, american in (
        ("initialise", "initialize"),
        ("initialisation", "initialization"),
        ("serialised", "serialized"),
        ("optimising", "optimizing"),
        ("synchronise", "synchronize"),
        ("tokenisers", "tokenizers"),
        ("sanitise", "sanitize"),
    ):
        assert stem(british) == stem(american), british
    for word in ("promise", "surprise", "exercise", "otherwise", "premises", "raise"):
        assert "iz" not in stem(word), word


def test_a_stop_words_inflection_is_one_but_a_word_stemmed_like_one_is_not() -> None:
    assert terms("returning getters") == []
    assert terms("Returns the Theme object") == [stem("theme"), stem("object")]
    assert all(terms(word) for word in ("note", "owner", "passed", "less", "sure", "outer"))


def test_identifiers_and_paths_written_in_a_question_are_found_exactly() -> None:
    found = identifiers("Why does test_config_port_type fail in app/pyshell.py for getX?")
    assert {"test_config_port_type", "app/pyshell.py", "getx"} <= found


def test_synonyms_are_symmetric_stems() -> None:
    assert stem("strip") in SYNONYMS[stem("remove")]
    assert stem("remove") in SYNONYMS[stem("strip")]


def test_a_one_letter_prefix_is_also_read_with_the_word_it_prefixes() -> None:
    # "the ETag header" names `setAutoEtag`; "XPath" is `xpath`; a lower-case `kOnClosed` is no `kon`
    assert stem("etag") in terms("the ETag header")
    assert stem("etag") in terms("setAutoEtag")
    assert "xpath" in terms("XPath")
    assert "kon" not in terms("kOnClosed")


def test_french_stopwords_do_not_swallow_english_code_words() -> None:
    assert terms("extract comments plus estimates") == ["extract", "comment", "plus", "estimat"]


def test_an_abbreviation_and_the_word_it_shortens_find_each_other() -> None:
    assert stem("configuration") in ABBREVIATIONS[stem("cfg")]
    assert stem("cfg") in ABBREVIATIONS[stem("configuration")]
    weights = query_weights("Return the current configuration as a dictionary")
    assert weights[stem("cfg")] == weights[stem("dict")] == 1.0


def test_the_short_forms_code_writes_for_arithmetic_iteration_and_time_are_found() -> None:
    weights = query_weights("Subtract b from a, return an iterator over the nanoseconds")
    assert weights[stem("sub")] == weights[stem("iter")] == weights[stem("nanos")] == 1.0


def test_a_condition_is_found_as_the_cond_code_names_it() -> None:
    assert query_weights("Return either of two values, depending on a condition")[stem("cond")] == 1.0


def test_a_phrase_brings_the_one_word_code_names_it_by() -> None:
    weights = query_weights("Removes all the entries, then returns the number of slots")
    assert weights[stem("clear")] == weights[stem("len")] == weights[stem("count")] == SYNONYM_WEIGHT
    assert stem("clear") not in query_weights("Removes the entry from all the slots")


def test_an_id_is_a_name() -> None:
    assert query_weights("Get the name of the group")["id"] == SYNONYM_WEIGHT


def test_a_very_long_line_is_tokenised_the_same_but_not_kept_in_the_cache() -> None:
    long_line = "loadUser(user_id) " * (MAX_CACHED_LINE_CHARS // 10)
    before = _cached_line_terms.cache_info().currsize
    assert line_terms(long_line) == ("load", "user", "load_user", "user", "id", "user_id") * (
        MAX_CACHED_LINE_CHARS // 10
    )
    assert _cached_line_terms.cache_info().currsize == before


def test_a_k_prefixed_constant_is_also_its_name_without_the_k() -> None:
    from mcp_pruner_server.pruning.terms import line_terms

    assert {"k_on_closed", "on_closed"} <= set(line_terms("kOnClosed"))
    assert "value" not in line_terms("k_value")


def test_a_question_spelling_an_identifier_as_words_matches_it_whole() -> None:
    from mcp_pruner_server.pruning.phrases import phrase_terms

    assert "on_closed" in phrase_terms("why is on-closed never called?")
    assert "enc_driver" in phrase_terms("where is enc driver defined")
    assert "is_the" not in phrase_terms("what is the enc driver")  # stop words only name nothing
    assert "driver_defined" not in phrase_terms("enc driver. Defined where?")  # not across a clause


def test_an_ional_adjective_meets_its_noun() -> None:
    # "The input contains an optional that is absent" is about an `Option`
    assert stem("optional") == stem("option") == stem("options")
    assert stem("conditional") == stem("condition")


def test_absence_and_freeing_memory_have_their_code_words() -> None:
    weights = query_weights("The input contains an optional that is absent")
    assert weights[stem("none")] > 0
    weights = query_weights("Release memory back to the allocator")
    assert weights[stem("free")] > 0


def test_beginning_destroying_pruning_disposing_and_kinds_have_their_code_words() -> None:
    assert query_weights("Begins watching source files")[stem("start")] == SYNONYM_WEIGHT
    assert query_weights("Deletes the database on disk")[stem("destroy")] == SYNONYM_WEIGHT
    assert query_weights("Removes old, unused entries")[stem("prune")] == SYNONYM_WEIGHT
    assert query_weights("Releases unmanaged resources")[stem("dispose")] == SYNONYM_WEIGHT
    assert query_weights("Return the specific type of this error")[stem("kind")] == SYNONYM_WEIGHT


def test_end_of_file_is_eof_spelled_with_spaces_or_hyphens() -> None:
    assert query_weights("Tests for end-of-file on a file pointer")["eof"] == SYNONYM_WEIGHT
    assert query_weights("Stops at the end of file")["eof"] == SYNONYM_WEIGHT


def test_pausing_is_sleeping_or_waiting() -> None:
    weights = query_weights("Pause the current task for the specified duration")
    assert weights[stem("sleep")] == weights[stem("wait")] == SYNONYM_WEIGHT
