"""MATLAB and Octave: a `.m` file whose lines say so (else Objective-C's); no grammar wheel, its
own scan (`matlab_blocks.py`); its help follows the signature (`matlab_docs.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.dot_m import is_matlab
from mcp_pruner_server.pruning.structure.language_hooks import MATLAB_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks

LANGUAGE = Language(
    name="matlab",
    percent_comment_signs=True,
    scanner=matlab_blocks,
    claims=(".m",),
    recognises=is_matlab,
    hooks=HOOKS,
    # MATLAB and Octave: a function with outputs (`function [a, b] = f(x)`, `function y = f`: Lua's and
    # Julia's `function f(x)` are not signs), `classdef` and its `properties` / `methods` blocks, the
    # argument counters (`nargin`, `varargout` …) and cell and struct helpers, Octave's `endfunction`,
    # `endfor` … (an `endif` or `endfunction` Fortran writes too is Fortran's: `NARROWER`).
    signs=(
        r"^\s*function\s+(?:\[[^\]]*\]|\w+)\s*=\s*[\w.]+\s*(?:\(|$|%|;)",
        r"^\s*(?:classdef\b|(?:properties|methods|events|enumeration)\b(?:\s*\(.*\))?\s*(?:%.*)?$)",
        r"^\s*end(?:function|if|for|while|switch|_try_catch|_unwind_protect)\b",
        # A script's opening chores (a shell's `clear` alone is not one) and its figures.
        r"^\s*(?:clc|close all|clear all|clearvars|hold (?:on|off)|format (?:long|short))\s*(?:[;,%]|$)",
        r"^\s*disp\(",
        r"\b(?:nargin|nargout|varargin|varargout|narginchk|nargoutchk|numel|isfield|cellfun|arrayfun|num2str)\b",
    ),
    narrower_signs=frozenset({"fortran"}),  # `endif`, `endfunction`
)
