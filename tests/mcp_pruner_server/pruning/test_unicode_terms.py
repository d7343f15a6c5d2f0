"""Words of any script: accents, non-Latin letters and their case, and ASCII text left as it was."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.phrases import phrase_terms
from mcp_pruner_server.pruning.terms import fold_accents, terms
from mcp_pruner_server.pruning.types import PruneOptions


def test_a_word_with_accents_is_one_term_not_fragments() -> None:
    assert terms("Número Máximo de Iterações") == terms("numero maximo de iteracoes")
    assert "mero" not in terms("Número Máximo de Iterações")
    assert terms("naïve café résumé") == terms("naive cafe resume")


def test_a_non_ascii_camel_case_identifier_splits_by_its_letters_case() -> None:
    assert terms("berechneGröße") == terms("berechne_größe") == [*terms("berechne Grosse"), "berechne_grosse"]
    assert fold_accents("Größe") == "Grosse"
    assert terms("размерБуфера") == ["размер", "буфера", "размер_буфера"]
    assert terms("ДНКПоследовательность") == ["днк", "последовательность", "днк_последовательность"]


def test_letters_of_uncased_scripts_keep_their_run_and_nothing_fails() -> None:
    assert terms("日本語のテキスト") == ["日本語のテキスト"]
    assert terms("Δt = σ * 2") == ["δt"]
    assert phrase_terms("Número Máximo de Iterações") == phrase_terms("numero maximo de iteracoes")


def test_ascii_words_are_cut_as_before() -> None:
    assert terms("store_file_breaks storeFileBreaks") == ["stor", "fil", "break", "store_file_breaks"] * 2
    assert terms("HTTPServer ETag CPUs kOnClosed x2") == [
        "http", "serv", "http_server", "tag", "etag", "e_tag", "cpu", "clos", "k_on_closed", "on_closed",
        "x_2",
    ]  # fmt: skip
    assert phrase_terms("parse the config file") == [
        "parse_the", "the_config", "config_file", "parse_the_config", "the_config_file",
        "parse_the_config_file",
    ]  # fmt: skip


_PORTUGUESE_MODULE = '''\
def load_settings(path):
    """Lê as configurações do arquivo indicado e devolve um dicionário."""
    with open(path) as handle:
        return parse(handle.read())


def solve(system, tolerance):
    """Resolve o sistema linear pelo método iterativo."""
    state = system.initial()
    for _ in range(limit(system)):
        state = state.step()
        if state.residual() < tolerance:
            break
    return state


def limit(system):
    """Número máximo de iterações permitido para o sistema."""
    bound = system.size * 10
    return max(bound, 100)


def render(state):
    """Desenha o estado atual na tela."""
    for row in state.rows:
        print(" ".join(str(v) for v in row))
'''


def test_a_question_in_portuguese_finds_the_function_documented_in_portuguese() -> None:
    question = "Qual é o numero maximo de iteracoes?"
    result = prune(_PORTUGUESE_MODULE, question, "code", PruneOptions(max_prune_ratio=0.8), "prn_t")
    assert "bound = system.size * 10" in result.pruned_text
    assert "print(" not in result.pruned_text
