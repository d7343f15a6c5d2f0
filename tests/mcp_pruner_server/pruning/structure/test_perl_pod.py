"""Perl's POD: the rows it covers, from a line opening with `=word` to `=cut`."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.perl_pod import pod_rows


def test_perl_pod_runs_from_its_first_command_to_cut_or_the_end() -> None:
    lines = ["sub f { 1 }", "=head1 NAME", "", "f - one", "=cut", "", "f();", "__END__", "=head2 f", "One."]
    assert pod_rows(lines) == {1, 2, 3, 4, 8, 9}
