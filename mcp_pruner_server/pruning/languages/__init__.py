"""The languages the engine knows: one record per language (`record.Language`), in a module named
for it (`go.py`, `fortran.py`, `vbnet.py`), found by name through `registry.py`.

A record says how a file in the language is recognised (extensions, file names, shebang
interpreters), how it is parsed (its tree-sitter grammar, and what the shared walk of a parse asks
of it), how its definitions are found where no grammar serves (a scanner), how its calls are
written and which rules of its own rank its units. The engine asks the record and never names a
language itself. How to add a language: `docs/languages.md`.
"""
