"""PowerShell: no grammar wheel; its braces as PowerShell lexes them (`powershell_blocks.py`), its
calls need no parentheses, and its ranking rules are `powershell.py`'s."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Language
from mcp_pruner_server.pruning.structure.language_hooks import POWERSHELL_HOOKS as HOOKS

LANGUAGE = Language(
    name="powershell",
    grep_shape="cmdlet",
    extensions=(".psm1", ".ps1"),
    interpreters=("pwsh",),
    hooks=HOOKS,
    calls=Calls(bare_words=re.compile(r"(?<![\w$-])[A-Za-z_][\w-]*")),
)
