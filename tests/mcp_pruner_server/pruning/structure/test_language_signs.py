from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import guess_language, language_of


def _lines(text: str) -> list[str]:
    return text.split("\n")


R_ROXYGEN = _lines(
    """\
#' Keep the rows that match a condition
#'
#' @param .data A data frame.
#' @param .by Columns to group by for this operation only.
#' @export
filter_rows <- function(.data, ..., .by = NULL) {
  if (is.null(.by)) {
    .by <- character()
  }
  keep <- vapply(list(...), function(x) all(x %in% TRUE), logical(1))
  .data[keep, , drop = FALSE]
}

#' @rdname filter_rows
print.row_filter <- function(x, ...) {
  UseMethod("print")
}
"""
)

R_S4_SCRIPT = _lines(
    """\
library(methods)
suppressPackageStartupMessages(library(dplyr))

setClass("Person", representation(name = "character", age = "numeric"))
setGeneric("greet", function(obj, ...) standardGeneric("greet"))
setMethod("greet", "Person", function(obj, ...) {
  cat("Hello,", obj@name, "\\n")
})

people <- read.csv("people.csv") %>% filter(age > 30)
"""
)

MATLAB_FUNCTION = _lines(
    """\
function [q, qd] = jtraj(q0, q1, tv, qd0, qd1)
%JTRAJ Compute a joint space trajectory
%
% [Q,QD] = JTRAJ(Q0, QF, M) is a joint space trajectory Q (MxN) where the joint
% coordinates vary from Q0 (1xN) to QF (1xN).
if nargin < 4
    qd0 = zeros(size(q0));
    qd1 = qd0;
end
q = zeros(numel(tv), numel(q0));
for i = 1:numel(tv)
    q(i,:) = q0 + tv(i) * (q1 - q0);
end
qd = diff(q);
end
"""
)

MATLAB_CLASSDEF = _lines(
    """\
classdef Robot < handle
    % A serial-link robot arm
    properties (SetAccess = private)
        links
        name
    end
    methods
        function obj = Robot(links, name)
            obj.links = links;
            obj.name = name;
        end
        function n = count(obj)
            n = numel(obj.links);
        end
    end
end
"""
)

OCTAVE_FUNCTION = _lines(
    """\
## -*- texinfo -*-
## @deftypefn {} {@var{m} =} avg (@var{v})
## The mean of @var{v}.
## @end deftypefn
function retval = avg (v)
  retval = 0;
  if (nargin != 1)
    print_usage ();
  endif
  for i = 1:numel (v)
    retval += v(i);
  endfor
  retval /= numel (v);
endfunction
"""
)

MATLAB_NO_OUTPUTS = _lines(
    """\
function show_frames(T, opts)
%SHOW_FRAMES Draw coordinate frames
%   SHOW_FRAMES(T) draws each frame of T, a 4x4xN array of poses.
for k = 1:size(T, 3)
    trplot(T(:,:,k), opts{:});
end
"""
)

MATLAB_SCRIPT = _lines(
    """\
clc; clear; close all;
% Simulate a damped spring
k = 4; c = 0.5;
t = linspace(0, 10, 200);
x = exp(-c*t) .* cos(sqrt(k)*t);
figure;
plot(t, x);
hold on
disp('done')
"""
)


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (R_ROXYGEN, "r"),  # `<- function(`, `#'` roxygen, `%in%`, `UseMethod(`
        (R_S4_SCRIPT, "r"),  # `library(`, `setClass(` / `setGeneric(` / `setMethod(`, `%>%`
        (MATLAB_FUNCTION, "matlab"),  # a function with outputs, `nargin`, `numel`, `%` help, `end`s
        (MATLAB_CLASSDEF, "matlab"),
        (OCTAVE_FUNCTION, "matlab"),  # `##` docs, `endif`, `endfor`, `endfunction`
        (MATLAB_SCRIPT, "matlab"),  # a script: `clc; clear; close all;`, `hold on`, `disp(`
        (MATLAB_NO_OUTPUTS, "matlab"),  # its help right under `function f(x)`, a `%` line, an `end`
    ],
)
def test_r_and_matlab_texts_without_a_path_are_recognised_by_their_lines(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang
    assert language_of(None, lines) == lang


RUBY = _lines(
    """\
require 'json'

class Report < Base
  attr_reader :rows

  def initialize(rows)
    @rows = rows
  end

  def total
    rows.sum { |r| r.fetch(:amount) }
  end
end
"""
)

LUA = _lines(
    """\
local M = {}

local function clamp(x, lo, hi)
  if x < lo then
    return lo
  end
  return math.min(x, hi)
end

function M.scale(v, k)
  return clamp(v * k, 0, 1)
end

return M
"""
)

PYTHON = _lines(
    """\
import os
from typing import Any


def describe(version: Any) -> str:
    if version.major < 3:
        raise ValueError("expected %d, got %d"
                         % (3, version.major))
    return "%s.%s" % (version.major, version.minor)


class Probe:
    def __init__(self) -> None:
        self.path = os.getcwd()
"""
)

OBJC = _lines(
    """\
#import <Foundation/Foundation.h>
#import "Robot.h"

// A robot arm
@implementation Robot

- (instancetype)initWithLinks:(NSArray *)links {
    self = [super init];
    return self;
}

- (NSUInteger)count {
    return self.links.count;
}

@end
"""
)

OCTAVE_SHELL = _lines(
    """\
clear
export OCTAVE_HISTFILE=/dev/null
for f in tests/*.m; do
  octave-cli --no-gui --eval "disp(pi); run('$f')"
done
if [ -z "$OCTAVE" ]; then
  echo "no octave" >&2
fi
"""
)

LOG = _lines(
    """\
  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
                                 Dload  Upload   Total   Spent    Left  Speed
100  1024  100  1024    0     0   2048      0 --:--:-- --:--:-- --:--:--  2048
2026-01-01 12:00:01 INFO worker <- job 12 (NULL payload)
2026-01-01 12:00:02 ERROR end of stream
end
2026-01-01 12:00:03 INFO retrying
end
"""
)

ERLANG = _lines(
    """\
%%% The job queue.
-module(jobs).
-export([push/2, pop/1]).

%% @doc Push a job onto the queue.
-spec push(term(), queue:queue()) -> queue:queue().
push(Job, Q) ->
    case queue:member(Job, Q) of
        true -> Q;
        false -> queue:in(Job, Q)
    end.

%% @doc Pop the oldest job.
pop(Q) ->
    receive
        stop -> ok
    end.
"""
)

JULIA = _lines(
    """\
function clamp01(x)
    return min(max(x, 0), 1)
end

function scale(v, k)
    if isempty(v)
        return v
    end
    return clamp01.(v .* k)
end
"""
)

KOTLIN_REQUIRE = _lines(
    """\
fun read(byteCount: Long): ByteString {
  require(byteCount)
  require(byteCount >= 0L) { "byteCount < 0: $byteCount" }
  return readByteString(byteCount)
}

fun skip(byteCount: Long) {
  require(byteCount)
}

fun peek(): BufferedSource {
  require(isOpen)
  return buffer
}
"""
)

HASKELL_DO = _lines(
    """\
module Main (main) where

import System.IO

main :: IO ()
main = do
  line <- getLine
  rest <- getContents
  putStrLn (line ++ rest)
"""
)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (RUBY, ("ruby",)),  # `class X < Y` and `end`s: no `classdef`
        (LUA, ("lua",)),  # `function M.f(x)` … `end`: no outputs
        (PYTHON, ("python",)),  # `% (…)` continuation lines are no MATLAB comments
        (OBJC, ("objc",)),  # a `.m` text of Objective-C
        (OCTAVE_SHELL, ("bash", None)),  # `clear` and `disp(` inside a shell command line
        (LOG, (None,)),  # curl's `% Total` header, `<-` and `NULL` in a message, two `end` lines
        (ERLANG, ("erlang",)),  # `%%` comments and `end`s without any MATLAB sign: its attributes
        (JULIA, (None,)),  # `function f(x)` … `end`: Lua's and Julia's alike, and no sign of either
        (KOTLIN_REQUIRE, ("kotlin",)),  # `require(x)` is Kotlin's and Scala's check too
        (HASKELL_DO, ("haskell",)),  # `x <- action` binds in a `do` block
    ],
)
def test_near_neighbours_are_not_taken_for_r_or_matlab(
    lines: list[str], expected: tuple[str | None, ...]
) -> None:
    assert guess_language(lines) in expected


def test_erlang_without_a_path_is_recognised_by_its_module_attributes() -> None:
    assert language_of(None, ERLANG) == "erlang"
    # the same words indented, as a tool's help lists its options, are no attributes
    help_text = ["Options:", "  -module(M)  the module", "  -export(F)  a function", "  -spec  the types"]
    assert guess_language(help_text) is None


def test_the_path_decides_when_given() -> None:
    assert language_of("src/Robot.m", OBJC) == "objc"
    assert language_of("toolbox/jtraj.m", MATLAB_FUNCTION) == "matlab"
    assert language_of("R/filter.R", R_ROXYGEN) == "r"
    assert language_of("lib/report.rb", MATLAB_CLASSDEF) == "ruby"
