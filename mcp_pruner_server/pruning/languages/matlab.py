"""MATLAB and Octave: a `.m` file whose lines say so (else Objective-C's); no grammar wheel, its
own scan (`matlab_blocks.py`); its help follows the signature (`matlab_docs.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.dot_m import is_matlab
from mcp_pruner_server.pruning.structure.language_hooks import MATLAB_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks

LANGUAGE = Language(
    name="matlab",
    scanner=matlab_blocks,
    claims=(".m",),
    recognises=is_matlab,
    hooks=HOOKS,
)
