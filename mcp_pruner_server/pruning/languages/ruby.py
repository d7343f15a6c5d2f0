"""Ruby: its calls need no parentheses."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language

LANGUAGE = Language(
    name="ruby",
    extensions=(".rb", ".rake", ".gemspec", ".ru"),
    file_names=("rakefile", "gemfile"),
    interpreters=("ruby",),
    grammar=Grammar("tree_sitter_ruby"),
    calls=Calls(bare_words=re.compile(r"(?<![\w@$])[A-Za-z_]\w*(?:[?!](?!=))?")),
)
