"""Every limit, grace period and timeout of `tools_exec`, each with the reason for its value.

The ranges a client may ask for (e.g. `timeout_ms` 100..300000) are validated by the server
against docs/tools.md#argument-rules; these are the defaults and the internal bounds.
"""

from __future__ import annotations

# -- output ---------------------------------------------------------------------------------
DEFAULT_MAX_OUTPUT_BYTES = 1_048_576
"""1 MiB: ~250k tokens, far more than an agent should ingest at once, yet small in memory."""

STDERR_RESERVE_SHARE = 0.25
"""Of a bash call's `max_output_bytes`, what stderr keeps however much stdout wrote: the error
message of a command that floods stdout is usually the part worth reading."""

SPOOL_AFTER_BYTES = 1_048_576
"""A captured stream stays in memory up to 1 MiB, then goes to an unlinked temporary file: ten
concurrent 64 MiB outputs cost 10 MiB of memory while their commands run, not 640 MiB."""

RAW_CAP_BYTES = 64 * 1_048_576
"""With a focus question, what a tool keeps of its output to prune (beyond it: the head and
`RAW_TAIL_BYTES` of tail): a 1M-line build log (~80 MB) is pruned in ~2 s."""

RAW_TAIL_BYTES = 1_048_576
"""The tail kept beyond the raw cap, in memory: where a failing run's error is."""

BASH_HEAD_SHARE = 0.25
"""A bash output cut to `max_output_bytes` keeps a quarter from its head (the command's setup) and
three quarters from its tail, where a build or test run prints its failure and summary."""

READ_COUNT_LINES_MAX_BYTES = 256 * 1_048_576
"""A whole file's middle (what falls between the head and the tail `read` keeps) up to this size is
read to count its lines for the marker (~0.1 s from the page cache); a larger one is skipped with a
seek, and the marker gives its bytes only."""

READ_HEAD_SHARE = 0.5
"""A file cut to `max_output_bytes` keeps as much of its head as of its tail."""

MIN_MAX_OUTPUT_BYTES = 1
"""Below one byte a cap is nonsense; the contract's floor (1024) is enforced by the server."""

READ_CHUNK_BYTES = 65_536
"""One pipe buffer on Linux: each read empties the pipe without over-allocating."""

READ_INLINE_MAX_BYTES = 65_536
"""`read` reads a file up to this size on the event loop (a local read of 64 KiB takes tens of
microseconds, less than a worker-thread hop); larger files are read in a thread."""

PIPE_CHUNKS_PER_YIELD = 16
"""A pipe reader yields to the event loop every 16 chunks (1 MiB) when a child writes nonstop."""

PIPE_SMALL_READ_BYTES = 16_384
"""A read shorter than this means the writer is trickling: pause before the next read."""

PIPE_COALESCE_S = 0.001
"""That pause: lets ~1 ms of small writes gather into one read (one wakeup instead of dozens);
at most 1 ms added to a command's latency."""

BINARY_SNIFF_BYTES = 8192
"""A NUL byte in the first 8 KiB marks a file as binary (git and ripgrep use the same rule)."""

# -- processes ------------------------------------------------------------------------------
DEFAULT_TIMEOUT_MS = 30_000
"""The contract's default for `bash.timeout_ms` and `grep.timeout_ms`."""

KILL_GRACE_S = 0.3
"""SIGTERM -> SIGKILL: long enough for a shell to forward TERM, short enough to stay < timeout + 1 s."""

GROUP_POLL_S = 0.01
"""How often the grace period first checks whether the process group is already gone."""

GROUP_POLL_MAX_S = 0.05
"""The check's interval doubles up to this: each check walks every pid on the machine, and a member
still alive after a few checks is most likely ignoring SIGTERM and waits for the SIGKILL anyway."""

DRAIN_AFTER_EXIT_S = 0.2
"""After the child exits or is killed, bytes still in the pipes get this long; a grandchild that
escaped the group may hold the pipe open forever, so we never wait for EOF unbounded."""

REAP_TIMEOUT_S = 1.0
"""Waiting for a SIGKILLed child to be reaped; the kernel does it at once, this only bounds a bug."""

FIND_BASH_CACHE_SIZE = 8
"""Distinct PATH values whose `bash` lookup we remember (one in practice)."""

LOGIN_ENV_TIMEOUT_S = 10.0
"""Running the user's login profile once to capture its environment; a profile slower than this is
broken, and commands run without it."""

LOGIN_ENV_TIMEOUT_SHARE = 0.5
"""Of a call's `timeout_ms`, what the first capture may use: the command itself keeps the other half."""

LOGIN_ENV_MAX_BYTES = 4 * 1_048_576
"""The captured login environment; a real one is a few KiB."""

LOGIN_ENV_CACHE_SIZE = 8
"""Distinct server environments whose login snapshot we keep (one in practice)."""

# -- grep -----------------------------------------------------------------------------------
DEFAULT_MAX_MATCHES = 500
"""The contract's default for `grep.max_matches`."""

RG_LINE_SLACK_BYTES = 65_536
"""Beyond a `--max-columns` preview, what one rg output line may add (path up to PATH_MAX, line and
column numbers, rg's "omitted" note); a longer line is a bug and ends the search as truncated."""

FIND_RG_CACHE_SIZE = 8
"""Distinct (Python executable, PATH) pairs whose rg lookup we remember (one in practice)."""

RG_STDERR_MAX_BYTES = 65_536
"""rg's error messages kept for `RgError`; one per unreadable file, the first ones say enough."""

MATCH_OVERHEAD_BYTES = 16
"""What one match costs against `max_output_bytes` beyond its path and text (line, column, JSON)."""
