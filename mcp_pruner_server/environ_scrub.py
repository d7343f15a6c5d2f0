"""The server forgets its secrets once its settings are read, so that a child cannot read them back.

`bash` children get an environment without secrets (`tools_exec/environment.py`), but a child can
read its parent's: `tr '\\0' '\\n' < /proc/$PPID/environ` printed the bearer token, a `DATABASE_URL`
with its password and `OPENAI_API_KEY`. Once the server has built its parts (settings, backends,
gateway upstreams: every secret it needs is copied into them), `forget_secrets`:

1. removes the secret variables (the children's rule, `is_secret`) from `os.environ` and the C
   environment, so nothing started later (engine workers, children) inherits them;
2. overwrites those entries with NULs in the process's original environment block: that block is
   what /proc/PID/environ shows (the kernel reads the memory between the `env_start` and `env_end`
   of /proc/PID/stat, whatever `unsetenv` did to `environ` since);
3. makes the process non-dumpable (`PR_SET_DUMPABLE` 0): its /proc files then belong to root, so
   a child under the same non-root uid cannot read its environment or memory at all. A root child
   (CAP_SYS_PTRACE) still can read the server's memory, where the token lives on in its settings:
   step 2 is what keeps /proc/PID/environ clean for it.

Linux only; elsewhere step 1 alone applies.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

from tools_exec.environment import EnvPolicy, is_secret

# From <linux/prctl.h>.
PR_SET_DUMPABLE = 4
# /proc/PID/stat's fields 50 and 51 (proc(5)), counted from the one after the command's `)`.
_ENV_START_FIELD = 50 - 3
_ENV_END_FIELD = 51 - 3


def forget_secrets(environ: MutableMapping[str, str] | None = None) -> list[str]:
    """Remove secret variables from this process's environment, /proc view included (see the
    module doc); the names removed, sorted."""
    env = os.environ if environ is None else environ
    policy = EnvPolicy.from_env(env)
    names = sorted(name for name, value in env.items() if is_secret(name, value, policy))
    for name in names:
        del env[name]  # os.environ: unsetenv, the C environment too
    if env is os.environ and sys.platform.startswith("linux"):
        _blank_original_block({name.encode("utf-8", "surrogateescape") for name in names})
        _make_undumpable()
    return names


def _blank_original_block(names: set[bytes]) -> None:
    """NULs over the `NAME=value` entries of `names` in the block /proc/self/environ shows."""
    try:
        fields = Path("/proc/self/stat").read_bytes().rsplit(b")", 1)[1].split()
        start, end = int(fields[_ENV_START_FIELD]), int(fields[_ENV_END_FIELD])
        block = Path("/proc/self/environ").read_bytes()
    except (OSError, IndexError, ValueError):
        return
    if len(block) > end - start:
        return  # not the block we think it is: never write outside it
    offset = 0
    for entry in block.split(b"\0"):
        if entry.partition(b"=")[0] in names:
            ctypes.memset(start + offset, 0, len(entry))
        offset += len(entry) + 1


def _make_undumpable() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
