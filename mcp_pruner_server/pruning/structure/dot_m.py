"""Whether a `.m` file is MATLAB's (or Octave's) or Objective-C's: both languages claim the suffix."""

from __future__ import annotations

import re
from collections.abc import Sequence

# A `.m` file is MATLAB (or Octave) when its first line of code, after its `%` / `##` comments,
# opens a function or a class. A script opens with commands instead (`clear; x = linspace(0, 1);`),
# so a file without any Objective-C sign (an `#import` or other directive, `@interface`,
# `@implementation`, a method's `- (void)`, a `//` or `/*` comment) is MATLAB too when it shows one
# of MATLAB's own: a `%` (or Octave's `#`) comment, a `function`, a bare `end` (or `endif` …).
_NO_CODE = re.compile(r"^\s*(?:%|#(?:[#\s!]|$)|$)")
_MATLAB_OPENING = re.compile(r"^\s*(?:function|classdef)\b")
_OBJC_SIGN = re.compile(
    r"^\s*(?:#(?:import|include|define|undef|if|ifdef|ifndef|pragma)\b"
    r"|@(?:interface|implementation|protocol|end|class|import)\b"
    r"|[-+]\s*\([\w\s*<>,]+\)\s*\w"  # a method: `- (void)name`, `+ (instancetype)new`
    r"|//|/\*)"
)
_MATLAB_SIGN = re.compile(r"^\s*(?:%|#[\s#]|function\b|end(?:if|for|while|function)?\s*[;,]?\s*(?:%.*)?$)")
# How far to look: a `.m` file's directives and first comments are at its top.
_SNIFFED_LINES = 1000


def is_matlab(lines: Sequence[str]) -> bool:
    """Whether the lines of a `.m` file are MATLAB's or Octave's rather than Objective-C's."""
    head = lines[:_SNIFFED_LINES]
    first = next((line for line in head if not _NO_CODE.match(line)), "")
    if _MATLAB_OPENING.match(first):
        return True
    if any(_OBJC_SIGN.match(line) for line in head):
        return False
    return any(_MATLAB_SIGN.match(line) for line in head)
