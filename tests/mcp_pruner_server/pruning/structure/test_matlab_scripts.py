"""A `.m` file: a MATLAB or Octave script (commands first, local functions last) or Objective-C."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import language_of

MATLAB_SCRIPTS = {
    "local functions at the end": [
        "clear; x = linspace(0,1);",
        "y = square(x);",
        "plot(x, y)",
        "",
        "function y = square(x)",
        "  y = x.^2;",
        "end",
    ],
    "plain commands with comments": [
        "% Load the data",
        "clc",
        "data = load('a.mat');",
        "disp(data) % show it",
    ],
    "Octave comments and endif": ["# set up", "x = 1;", "if x", "  disp(x)", "endif"],
    "CRLF": ["clear all;\r", "% a note\r", "x = 3;\r"],
}

OBJC_FILES = {
    "imports first": ["#import <Foundation/Foundation.h>", "", "@implementation Foo", "@end"],
    "a method": ["- (void)viewDidLoad {", "  [super viewDidLoad]; // %d is a format", "}"],
    "a `%` line after C comments": ["//", "// Foo.m", "//", "@interface Foo ()", "@end", "% x"],
    "a pragma and an include": ["#pragma mark - Helpers", "#include <stdio.h>", "% nothing"],
    "a block comment then code": ["/* x */", "int main(void) {", "  return 0;", "}"],
}


@pytest.mark.parametrize("name", sorted(MATLAB_SCRIPTS))
def test_a_matlab_script_is_matlab(name: str) -> None:
    assert language_of("demo.m", MATLAB_SCRIPTS[name]) == "matlab"


@pytest.mark.parametrize("name", sorted(OBJC_FILES))
def test_an_objective_c_file_stays_objective_c(name: str) -> None:
    assert language_of("demo.m", OBJC_FILES[name]) == "objc"


@pytest.mark.parametrize("lines", [[], [""], ["x = 1;"]])
def test_a_dot_m_file_without_signs_stays_objective_c(lines: list[str]) -> None:
    assert language_of("demo.m", lines) == "objc"
