"""Bash, and the shells whose functions parse as Bash's (sh, dash, ksh, zsh)."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language

LANGUAGE = Language(
    name="bash",
    grep_shape="shell",
    extensions=(".sh", ".bash", ".ksh", ".zsh"),
    file_names=(".bashrc", ".bash_profile", ".profile", "pkgbuild"),
    interpreters=("bash", "sh", "dash", "ksh", "zsh"),
    grammar=Grammar("tree_sitter_bash"),
    calls=Calls(bare_words=re.compile(r"(?<![\w$-])[A-Za-z_][\w-]*")),
    signs=(
        r"^(?:function\s+)?[\w-]+\s*\(\)\s*\{?\s*$",  # unindented: a JS method `render() {` is not
        r"^\s*function\s+[\w-]+\s*\{?\s*$",
        r"^\s*local\s+-?\w(?!\w*(?:\s*,\s*\w+)*\s+=\s)",  # not Lua's `local x = 1`
        r"^\s*(?:fi|esac|done)\s*(?:[;&|].*)?$",
        r"^\s*complete\s+-|\bCOMPREPLY\b|\$\{?(?:BASH_SOURCE|COMP_\w+)",
        r"^\s*(?:if|while|elif)\s+\[\[? ",
    ),
    narrower_signs=frozenset({"powershell"}),  # PowerShell's `function Get-Thing {`
)
