"""One tool call, in a straight line: validate, run the tool, prune its output, reply.

- `dispatcher.py`: `ToolDispatcher.call` walks a call through the `req:*` states; `TOOLS`
  maps each tool name to its argument parser and the function that runs it (`tools/`).
- `prune_step.py`: `raw_output_ready → prune_check → … → respond_*` for read/bash/grep,
  through `PrunerService` (`pruner_service.py`), whose `PruneOutcome` it reads as is.
- What a tool is given and hands back (`ToolContext`, `RawOutput`, `ToolFailure`,
  `PruningMetadata`) is the tools' own `tools/outcome.py`: the pipeline imports the tools, never
  the other way.
- `states.py`: the `req:*` machine as data (docs/state-machines.md#request-machine).
- `stats.py`: the run totals of `GET /stats`.
"""
