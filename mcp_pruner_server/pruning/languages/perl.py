"""Perl: a sub may be a value (`*name = sub {…}`, `my $f = sub {…}`, a call's last argument after
its name: a Moose `around grow => sub {…}`, a route's `get '/users' => sub {…}`), and a package may
be a block (`package Foo { … }`): these shapes are its definitions query (`queries/perl.scm`).
Its POD is documentation (`structure/perl_pod.py`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.language_hooks import LanguageHooks
from mcp_pruner_server.pruning.structure.perl_pod import blank_stray_cuts, pod_rows
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

_PERL_NAME = re.compile(r"[A-Za-z_]\w*")
# A call that may bind a name to a sub (`around grow => sub {…}`: `queries/perl.scm`).
_PERL_CALLS = frozenset(
    {"function_call_expression", "ambiguous_function_call_expression", "method_call_expression"}
)


def _perl_sub_name(call: Node) -> Node | None:
    """The name argument of a call its query found given a name and a sub alone."""
    args = call.child_by_field_name("arguments")
    return None if args is None or not args.named_child_count else args.named_children[0]


def _name(node: Node, found: str | None) -> str | None:
    """The name a sub given as a value binds (`*name = sub`, `my $handler = sub`, a call's name
    argument), where its `name` field gives none."""
    if found is not None:
        return found
    t = node.type
    if t in _PERL_CALLS:
        arg = _perl_sub_name(node)
        text = "" if arg is None else (name_text(arg) or "").strip("'\"+")
        return text if _PERL_NAME.fullmatch(text) else None  # a route (`'/users/:id'`) has none
    if t == "assignment_expression":
        left = node.child_by_field_name("left")
        text = "" if left is None else (name_text(left) or "")
        words = _PERL_NAME.findall(text)
        return words[-1] if words else None  # `*glob_sub`, `my $handler`: the name without its sigil
    return None


LANGUAGE = Language(
    name="perl",
    extensions=(".pl", ".pm"),
    interpreters=("perl",),
    grammar=Grammar("tree_sitter_perl"),
    # Its POD outside a sub's doc (`=head1 DESCRIPTION`, the reference after `__END__`) is
    # documentation as a doc comment is: at full weight it outscored the subs it is about.
    hooks=LanguageHooks(doc_rows=pod_rows),
    syntax=Syntax(
        definitions="ours", adds_to_shared=True, rename=_name, blanked=blank_stray_cuts, pod_docs=True
    ),
    signs=(
        r"^use (?:strict|warnings|utf8|vars|constant|parent|base|lib|[A-Z]\w*(?:::\w+)*)\b[^;]*;$",
        r"^package [A-Za-z]\w*(?:::\w+)*;$|^1;$|^__(?:END|DATA)__$",
        r"^\s*my [$@%(]|^sub \w+\s*\{?$",
    ),
)
