"""Ranking Perl subs against the POD around them: the reference after `__END__`, one paragraph
after another, is documentation, never a rival to the subs it is about."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks


def _units(lines: Sequence[str], question: str) -> list[Unit]:
    blocks = syntax_blocks("\n".join(lines), len(lines), "perl")
    assert blocks is not None  # the grammar is installed: the parser made the blocks
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    scores = window_scores(query, lh)
    return code_units(lines, lh, query, scores, blocks=blocks, lang="perl", question=question)


def _best_header(lines: Sequence[str], units: Sequence[Unit]) -> str:
    best = max(units, key=lambda u: u.score)
    return next(lines[i].strip() for i in best.lines if lines[i].strip())


# A module documented after `__END__`, as most of CPAN is: a paragraph or two per option, many
# more paragraphs than subs, its siblings documented alike. The sub asked about has no section.
_OPTIONS = (
    "hide_toolbar",
    "hide_menubar",
    "hide_window_ui",
    "fit_window",
    "center_window",
    "display_title",
    "non_full_screen_page_mode",
    "direction",
    "print_scaling",
    "duplex",
)
PREFERENCES = [
    "package Viewer::Preferences;",
    "",
    "sub new {",
    "    my ($class, $pdf) = @_;",
    "    return bless { pdf => $pdf }, $class;",
    "}",
    "",
    "sub set_preferences {",
    "    my ($self, %values) = @_;",
    "    foreach my $key (keys %values) {",
    "        $self->{dict}->{$key} = $values{$key};",
    "    }",
    "    return $self;",
    "}",
    "",
    "sub get_preferences {",
    "    my $self = shift;",
    "    return %{ $self->{dict} };",
    "}",
    "",
    "1;",
    "",
    "__END__",
    "",
    "=head1 NAME",
    "",
    "Viewer::Preferences - how the document is shown on screen",
    "",
    "=head1 METHODS",
    "",
    "=head2 get_preferences",
    "",
    "Returns one or more viewer preferences, as described in the preferences section below.",
    "",
    "=head1 PREFERENCES",
    "",
    "Viewer preferences describe how the document is presented on screen or in print.",
    "",
    *(
        line
        for option in _OPTIONS
        for line in (f"=item {option}", "", f"Whether the viewer applies {option} when it opens.", "")
    ),
    "=cut",
]


def test_a_sub_named_for_the_question_beats_the_pod_paragraphs_worded_like_it() -> None:
    lines = PREFERENCES
    question = "Sets one or more viewer preferences, as described in the preferences section below."
    units = _units(lines, question)
    assert _best_header(lines, units) == "sub set_preferences {"


# Accessors documented alike after `__END__`; `only`'s section is missing, and its name is a stop
# word the question writes as an option.
CONFIG = [
    "package Critic::Config;",
    "",
    *(
        line
        for name in ("exclude", "include", "only", "force", "severity")
        for line in (
            f"sub {name} {{",
            "    my ($self) = @_;",
            f"    return $self->{{_{name}}};",
            "}",
            "",
        )
    ),
    "1;",
    "",
    "__END__",
    "",
    "=over",
    "",
    *(
        line
        for name in ("exclude", "include", "force", "severity")
        for line in (
            f"=item C<{name}()>",
            "",
            f"Returns the value of the C<-{name}> attribute for this Config.",
            "",
        )
    ),
    "=back",
    "",
    "=cut",
]


def test_a_sub_named_by_a_stop_word_is_found_when_the_question_writes_it_as_code() -> None:
    lines = CONFIG
    units = _units(lines, "Returns the value of the -only attribute for this Config.")
    assert _best_header(lines, units) == "sub only {"
