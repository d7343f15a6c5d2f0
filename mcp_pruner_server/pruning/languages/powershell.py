"""PowerShell: no grammar wheel; its braces as PowerShell lexes them (`powershell_blocks.py`), its
calls need no parentheses, and its ranking rules are `powershell.py`'s."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Language
from mcp_pruner_server.pruning.structure.language_hooks import POWERSHELL_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.powershell import PWSH_COMMENT

LANGUAGE = Language(
    name="powershell",
    grep_shape="cmdlet",
    extensions=(".psm1", ".ps1"),
    interpreters=("pwsh",),
    hooks=HOOKS,
    comment=PWSH_COMMENT,  # `#` (not `#!`) and `<#` block comments
    calls=Calls(bare_words=re.compile(r"(?<![\w$-])[A-Za-z_][\w-]*")),
    # PowerShell: verb-noun functions (`function Get-Thing`), `[CmdletBinding()]`, `param(`, its
    # comment help (`<#`, `.SYNOPSIS`), cmdlets opening a line, `[string]$x`, `$true`, `$env:X` (a
    # console's `PS C:\> …` lines are no script's: `languages.guess_language` passes them by).
    signs=(
        r"^\s*(?:function|filter|workflow)\s+(?:(?:global|script|private):)?[A-Z][a-z]+-[A-Z]\w*",
        r"^\s*\[(?:CmdletBinding|Parameter|OutputType|Alias|Validate\w+|ArgumentCompleter)\b|^\s*param\s*\(\s*(?:\[|\$|$)",
        r"^\s*<#\s*$|^\s*\.(?:SYNOPSIS|DESCRIPTION|PARAMETER|EXAMPLE|NOTES|OUTPUTS|INPUTS|LINK)\b",
        r"^\s*(?:\$[\w:]+\s*=\s*)?(?:Get|Set|New|Remove|Add|Clear|Write|Read|Import|Export|Test|Join|Split|Invoke|"
        r"Start|Stop|Out|ConvertTo|ConvertFrom|Select|Where|ForEach|Sort|Measure|Format|Update|Resolve|Register|"
        r"Copy|Move|Rename)-[A-Z][a-zA-Z]+\b",
        r"\[[A-Za-z][\w.]*(?:\[\])?\]\s*\$[A-Za-z_]|\$(?i:PSBoundParameters|PSScriptRoot|PSCmdlet|PSItem|MyInvocation|"
        r"PSVersionTable|ErrorActionPreference|env:\w|script:\w|global:\w)|\$(?:[Tt]rue|[Ff]alse|[Nn]ull)\b",
    ),
)
