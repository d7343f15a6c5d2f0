"""R: no grammar wheel; its definitions found by its own scan (`r_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.language_hooks import R_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.r_blocks import r_blocks

LANGUAGE = Language(
    name="r",
    extensions=(".r",),
    interpreters=("Rscript",),
    scanner=r_blocks,
    hooks=HOOKS,
    # R: a function bound with `<-` (JavaScript and Lua bind theirs with `=`), roxygen's `#'` docs
    # (Common Lisp's `#'f` has no space after it), S4 and R6 classes, S3 dispatch, `%>%` / `%in%`,
    # and `<-` binding a value only R writes so (Haskell's, OCaml's and Go's `<-` bind no `NULL`).
    signs=(
        r"^\s*(?:[\w.]+|`[^`]+`)\s*<<?-\s*function\s*\(",
        r"^\s*#'(?: |$)",
        r"^\s*(?:[\w.]+\s*<-\s*)?(?:setMethod|setGeneric|setClass|setValidity|setRefClass|(?:R6::)?R6Class)\(",
        r"^\s*(?:library|suppressPackageStartupMessages)\(",  # not `require(x)`: Kotlin's and Scala's check
        r"\b(?:UseMethod|NextMethod|standardGeneric|requireNamespace)\(|%(?:>|in|<>|T>|\|\|)%"
        r"|<-\s*(?:NULL|TRUE|FALSE|NA|c\(|list\()",
    ),
)
