"""Clojure (and babashka): no grammar wheel; its own scan (`clojure_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks

LANGUAGE = Language(
    name="clojure",
    extensions=(".clj", ".cljs", ".cljc", ".bb"),
    scanner=clojure_blocks,
    # Clojure: `(ns a.b`, `(in-ns 'a.b)`, `(def x`, `(defn f`, `(:require [`, `(:use [` (not Common
    # Lisp's `defmethod`, `deftype` and `defmacro`).
    signs=(
        r"^\((?:ns|in-ns|def|defn-?|defonce|defprotocol|defrecord|defmulti|definterface|extend-(?:type|protocol))"
        r"(?=\s|$)",
        r"^\s*\(:(?:require|import|refer-clojure|gen-class)(?=\s|$)|^\s*\(:use \[",
    ),
)
