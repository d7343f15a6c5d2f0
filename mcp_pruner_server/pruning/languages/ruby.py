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
    # `require 'net/http'`, `require_relative '../lib/rate_limiter'`. What they bind is not said
    # (`Net::HTTP`, `RateLimiter` by convention): the best units bring none of them (matching the
    # files' base names to the body's words cost recall on the Ruby dev set at 0.9, -0.010).
    import_starts=re.compile(r"require(?:_relative)?\s*\(?\s*['\"]"),
    signs=(
        r"^\s*require(?:_relative)? ['\"]",
        r"^\s*(?:module|class) [A-Z]\w*(?:::\w+)*(?: < [\w:]+)?$",
        r"^\s*def (?:self\.)?\w+[?!=]?(?:\(.*\))?$",
        r"^\s*attr_(?:reader|writer|accessor) :",
    ),
)
