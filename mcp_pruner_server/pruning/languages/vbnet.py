"""Visual Basic .NET, VBA and VB6 modules, VBScript: no grammar wheel; their procedures close alike
(`vbnet_blocks.py`); a property is called without parentheses."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Language
from mcp_pruner_server.pruning.structure.language_hooks import VBNET_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks

LANGUAGE = Language(
    name="vbnet",
    extensions=(".vb", ".bas", ".vbs"),
    scanner=vbnet_blocks,
    hooks=HOOKS,
    calls=Calls(shape=re.compile(r"(?<!\w)[A-Za-z_]\w*(?=\s*\()|(?<=\.)[A-Za-z_]\w*")),
    # Visual Basic: `Imports`, `End Sub` / `End If` …, `Dim x As T`, `'''` docs, `Option Strict`.
    signs=(
        r"^Imports [\w.]+(?: = [\w.]+)?\s*$|^Option (?:Strict|Explicit|Infer) (?:On|Off)\s*$",
        r"^\s*End (?:Sub|Function|Class|Module|Namespace|Property|Structure|Interface|Enum|If|Select|Try|"
        r"With|Using|Get|Set|SyncLock|While|Operator)\s*$",
        r"^\s*(?:Dim|Private|Public|Friend) \w+ As (?:New )?[\w.]+|^\s*'''\s*<\w+|^\s*Next(?: \w+)?\s*$",
    ),
)
