"""The local ledger: one SQLite row per tool call, for `jeeves gain` and `jeeves show`.

- `config.py`: its settings (`[ledger]`, `JEEVES_LEDGER*`) and the default path.
- `record.py`: `CallRecord`, one finished call as the dispatcher hands it over.
- `sink.py`: `LedgerSink`, what the dispatcher submits to; opens the writer on the first call.
- `writer.py`: the queue and the writer thread (tokens counted, re-reads and recovers linked).
- `store.py`: the schema and how the file is opened (WAL).
- `queries.py`: what `jeeves gain` and `jeeves show` read.
"""
