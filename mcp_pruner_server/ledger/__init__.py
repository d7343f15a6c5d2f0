"""The local ledger: one SQLite row per tool call, for `jeeves gain` and `jeeves show`.

- `config.py`: its settings (`[ledger]`, `JEEVES_LEDGER*`) and the default path.
- `record.py`: `CallRecord`, one finished call as the dispatcher hands it over.
- `sink.py`: `LedgerSink`, what the dispatcher submits to; opens the channel on the first call.
- `channel.py`: the pipe to the writer process (non-blocking; a backlog, one sender thread).
- `wire.py`: the frames on that pipe.
- `writer.py`: the writer process (tokens counted, re-reads and recovers linked, batches).
- `store.py`: the schema and how the file is opened (WAL).
- `queries.py`: what `jeeves gain` and `jeeves show` read.
"""
