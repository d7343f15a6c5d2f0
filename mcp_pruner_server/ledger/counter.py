"""Token counts for the ledger, in a helper process: `python -m mcp_pruner_server.ledger.counter`.

Counting is the writer's costly step: rendering the model's text (`tools/model_text.py`) and
running the tokenizer over it, milliseconds of a held GIL per result. Done in the server's own
writer thread, those milliseconds landed inside tool calls (measured in `bench_ledger.py`: a
call's hand-off to the ledger went from p99 6 ms without counting to 80 ms with it, on two
loaded cores). So the writer thread sends each result to one helper process per server over a
pipe (JSON lines) and waits for the count with the GIL released.

The helper starts with the first count, gets no secret (a minimal environment), and exits at
EOF on its stdin: when the server exits or dies. If it cannot start or dies, counting falls
back to the writer thread (`count_model_tokens`), as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from typing import IO, Final

from mcp_pruner_server.ledger.record import JsonObject
from mcp_pruner_server.logs import log_event

# What the helper needs to find Python, our packages and a temporary directory; nothing else.
HELPER_ENV_KEYS: Final = ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH", "TMPDIR", "VIRTUAL_ENV")


def count_model_tokens(tool: str, result: JsonObject | None, text: str) -> int:
    """Tokens of the text the model reads for `result` (`tools/model_text.py`), counted as the demo
    counts them (`runner.bench.tokens.count_tokens`); of `text` (the JSON) when there is no plain form."""
    from mcp_pruner_server.tools.model_text import model_text
    from runner.bench.tokens import count_tokens

    rendered = model_text(tool, result) if result is not None else None
    if rendered is None:
        return count_tokens(text) if text else 0
    return count_tokens(rendered)


class TokenCounter:
    """Counts in the helper process while it lives, in this thread otherwise. One thread uses it."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._failed = False

    def count(self, tool: str, result: JsonObject | None, text: str) -> int:
        process = self._helper()
        if process is not None:
            stdin, stdout = process.stdin, process.stdout
            assert stdin is not None
            assert stdout is not None
            try:
                stdin.write(json.dumps({"tool": tool, "result": result, "text": text}) + "\n")
                stdin.flush()
                answer = stdout.readline()
                return int(json.loads(answer)["tokens"])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                self._give_up(f"{type(exc).__name__}: {exc}")
        return count_model_tokens(tool, result, text)

    def _helper(self) -> subprocess.Popen[str] | None:
        if self._process is not None or self._failed:
            return self._process
        env = {key: os.environ[key] for key in HELPER_ENV_KEYS if key in os.environ}
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)  # as this process imports
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "mcp_pruner_server.ledger.counter"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="ascii",  # both ends write `json.dumps`'s ASCII: no codec to agree on
                env=env,
            )
        except OSError as exc:
            self._give_up(f"{type(exc).__name__}: {exc}")
        return self._process

    def _give_up(self, error: str) -> None:
        log_event("ledger.counter_unavailable", level="warning", error=error)
        self._failed = True
        self.close()

    def close(self) -> None:
        """End the helper (EOF on its stdin)."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if process.stdin is not None:
                process.stdin.close()
        try:
            process.wait(HELPER_EXIT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


# The helper finishes its current count and exits at EOF: well under a second.
HELPER_EXIT_TIMEOUT_S: Final = 2.0


def serve(lines: IO[str], out: IO[str]) -> None:
    """The helper's loop: one JSON request per line in, one `{"tokens": n}` line out."""
    for line in lines:
        request = json.loads(line)
        result = request.get("result")
        tokens = count_model_tokens(
            str(request["tool"]), result if isinstance(result, dict) else None, str(request.get("text", ""))
        )
        out.write(json.dumps({"tokens": tokens}) + "\n")
        out.flush()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        serve(sys.stdin, sys.stdout)
