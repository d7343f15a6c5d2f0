"""Units from the parser where Perl gives definitions in shapes of its own: subs in blocks, as
values and given to calls after their names; a sub's doc is the last section of the POD above it."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


PERL_BLOCKS = """\
package Widget;

BEGIN {
    sub early {
        return 1;
    }
}

{
    my $count = 0;
    sub counted {
        return ++$count;
    }
}

package Widget::Inner {
    sub inner {
        return 2;
    }
}

*grow = sub {
    my ($w, $step) = @_;
    return $w + $step;
};
"""


def test_perl_subs_in_begin_bare_blocks_package_blocks_and_globs_are_units() -> None:
    assert _spans(PERL_BLOCKS, "perl") == [
        (3, 3, 6, False, None, "early"),
        (10, 10, 13, False, None, "counted"),
        (15, 15, 20, True, None, "Widget::Inner"),
        (16, 16, 19, False, 2, "inner"),
        (21, 21, 25, False, None, "grow"),
    ]


PERL_POD = """\
package Widget;

=head1 NAME

Widget - a widget

=head2 grow

Grows the widget by a step.

=cut

sub grow {
    return $_[0] + $_[1];
}
"""


def test_a_perl_sub_starts_at_the_last_section_of_the_pod_above_it() -> None:
    assert _spans(PERL_POD, "perl") == [(6, 12, 15, False, None, "grow")]


# A sub's POD deleted down to its `=cut`: the `=cut` left closes no POD.
PERL_STRAY_CUT = """\
sub grow {
    return $_[0] + 1;
}

=cut

sub shrink {
    return $_[0] - 1;
}

=head2 wrap

=cut

sub wrap { [@_] }
"""


PERL_NAMED_SUBS = """\
around grow => sub {
    my ($orig, $self) = @_;
    return $self->$orig() * 2;
};

has size => (is => 'rw', default => sub { 1 });

get '/users/:id' => sub {
    return 1;
};

__PACKAGE__->meta->add_method('bump', sub {
    return 2;
});
"""


def test_a_perl_sub_given_to_a_call_after_its_name_is_a_unit_of_that_name() -> None:
    assert [(b.start, b.end, b.name) for b in blocks_of(PERL_NAMED_SUBS, "perl")] == [
        (0, 4, "grow"),
        (7, 10, None),  # a route: its path is no name
        (11, 14, "bump"),
    ]


def test_a_perl_cut_that_closes_no_pod_opens_none() -> None:
    assert [(b.start, b.end, b.name) for b in blocks_of(PERL_STRAY_CUT, "perl")] == [
        (0, 3, "grow"),
        (6, 9, "shrink"),
        (10, 15, "wrap"),
    ]
