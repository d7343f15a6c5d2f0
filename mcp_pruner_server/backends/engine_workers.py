"""Engine worker processes the server can kill: a hard deadline for each call, a dead worker replaced.

The engine bounds itself (`pruning/deadline.py`), but only between the steps of its loops: inside
one regex search or one C call it cannot look at the clock, and a worker that runs on holds its
slot (one 32 KiB line once held it 22 s while unrelated calls waited). So each call has a hard
deadline: past it, the worker is killed (SIGKILL), the call raises `WorkerOverran`, and a
replacement is started at once, its imports running while the server answers. A worker that dies
under a call (the OOM killer) raises `WorkerDied` and is replaced the same way. The caller answers
fail-open; nothing ever runs in the server's own process.

A worker is `mcp_pruner_server/engine_worker.py`: it imports the engine, says `READY`, then answers pickled
`(function, args)` requests read from its stdin, one at a time, until its stdin closes. The
deadline counts from the call, the wait for a worker included: a replacement's imports (0.8 s on
an idle 2-core host, 2.4 s on a busy one) once came on top of it, and back-to-back 60 MB reads,
each killed, took 2.8-4.2 s against a 2 s budget. So the workers are started ahead (`warm`, at the
server's start), a killed one replaced at once, a call takes a ready worker first, and a call
still waiting for one at its deadline raises `WorkerNotReady` (the worker it waited for stays for
the next call). A caller that wants its budget to count the work only, not a worker's start (the
first prune after the server's start, its workers still importing), waits for it first with
`until_started`, bounded apart.
"""

from __future__ import annotations

import contextlib
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import TypeVar, cast

import anyio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process
from anyio.streams.buffered import BufferedByteReceiveStream

from mcp_pruner_server.engine_worker import HEADER, READY

T = TypeVar("T")

# A worker's start (interpreter, engine modules, grammars) on a loaded 2-core host takes ~1 s; a
# worker not ready in this long is taken for broken.
WORKER_START_TIMEOUT_S = 30.0
# `-c`, not `-m`: run as `__main__`, a module the package also imports would be imported twice.
_WORKER_MAIN = "from mcp_pruner_server.engine_worker import main; main()"


class WorkerFailed(Exception):
    """Base class: raised when a worker gave no answer to a call (it is gone, a new one started).

    WorkerFailed
    ├── WorkerOverran: the call ran past its hard deadline; the worker was killed.
    ├── WorkerNotReady: the call's deadline passed before a worker was free and ready.
    ├── WorkerDied: the worker exited (killed, out of memory) or broke its pipe mid-call.
    └── WorkerUnavailable: no worker could be started (spawn failed or never became ready).
    """


class WorkerOverran(WorkerFailed):
    """Raised when a call ran past its hard deadline: its worker was killed."""


class WorkerNotReady(WorkerFailed):
    """Raised when a call's deadline passed while it waited for a worker (all busy, or starting)."""


class WorkerDied(WorkerFailed):
    """Raised when a worker exited or broke its pipe during a call."""


class WorkerUnavailable(WorkerFailed):
    """Raised when a worker could not be started (`OSError` from the spawn, or no `READY`)."""


class EngineWorker:
    """One worker process and its pipes."""

    def __init__(self, process: Process) -> None:
        self.process = process
        self.spawned_at = anyio.current_time()  # a start's allowance counts from here
        self._stdin = cast(ByteSendStream, process.stdin)
        self._stdout = BufferedByteReceiveStream(cast(ByteReceiveStream, process.stdout))
        self._ready = False
        # `warm()` and a first call may both wait for `READY`: one reads it, the other waits here
        # (two readers of one pipe at once is an error).
        self._reading_ready = anyio.Lock()

    @classmethod
    async def start(cls) -> EngineWorker:
        """A new worker, importing as the caller goes on (`ready()` waits for it).

        Raises:
            WorkerUnavailable: the process could not be spawned.
        """
        command = [sys.executable, "-c", _WORKER_MAIN]
        try:
            process = await anyio.open_process(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:
            raise WorkerUnavailable(f"cannot start an engine worker: {exc}") from exc
        return cls(process)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    @property
    def is_ready(self) -> bool:
        """It said `READY` (a call sent to it is answered without waiting for its imports)."""
        return self._ready

    async def ready(self) -> None:
        """Wait for the worker's `READY` (at once after the first time).

        Raises:
            WorkerUnavailable: it exited or did not say it within `WORKER_START_TIMEOUT_S`.
        """
        async with self._reading_ready:
            if self._ready:
                return
            if not self.alive:
                raise WorkerUnavailable(f"the engine worker exited before it started: {self._exit_reason()}")
            try:
                with anyio.fail_after(WORKER_START_TIMEOUT_S):
                    said = await self._stdout.receive_exactly(len(READY))
            except (TimeoutError, anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError) as exc:
                await self.kill()
                raise WorkerUnavailable(f"the engine worker did not start: {exc!r}") from exc
            if said != READY:
                await self.kill()
                raise WorkerUnavailable(f"the engine worker said {said!r}")
            self._ready = True

    async def call(self, request: bytes) -> object:
        """Send one pickled request and wait for its answer (the returned value).

        Raises:
            WorkerDied: the worker exited or broke a pipe.
            Exception: what the call raised in the worker.
        """
        try:
            await self._stdin.send(HEADER.pack(b"C", len(request)) + request)
            status, length = HEADER.unpack(await self._stdout.receive_exactly(HEADER.size))
            payload = await self._stdout.receive_exactly(length)
        except (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError, OSError) as exc:
            await self.kill()
            raise WorkerDied(f"the engine worker (pid {self.pid}) died: {self._exit_reason()}") from exc
        value = pickle.loads(payload)
        if status == b"E":
            raise cast(BaseException, value)
        return value

    async def kill(self) -> None:
        """SIGKILL and reap (shielded: it runs while a cancelled caller unwinds)."""
        with anyio.CancelScope(shield=True):
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
            await self.process.aclose()

    def _exit_reason(self) -> str:
        code = self.process.returncode
        if code is None:
            return "its pipe broke"
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"


class EnginePool:
    """At most `size` workers, each call with a hard deadline; see the module doc."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._slots = anyio.Semaphore(size)
        self._idle: list[EngineWorker] = []
        self._busy: set[EngineWorker] = set()
        self._closed = False

    @property
    def idle_pids(self) -> list[int]:
        """The idle workers' pids."""
        return [w.pid for w in self._idle]

    @property
    def busy_pids(self) -> list[int]:
        """The pids of the workers running a call (a test kills one for real)."""
        return [w.pid for w in self._busy]

    async def warm(self) -> None:
        """Start the workers now, not at the first call, and wait until they are ready (the
        server runs this in the background).

        Raises:
            WorkerUnavailable: a worker could not be started.
        """
        while len(self._idle) + len(self._busy) < self._size and not self._closed:
            self._idle.append(await EngineWorker.start())
        for worker in list(self._idle):
            await worker.ready()

    async def until_started(self, allowance_s: float) -> None:
        """Wait for a worker that is still starting when none is idle and ready (the pool's start,
        a replacement; none at all: one is started), until it is ready or `allowance_s` after its
        spawn (so calls one after the other never wait for one start longer than that): the budget
        of the call that follows counts its own work, not a worker's imports. At once when one is
        idle and ready, or when every worker is busy (that wait is the call's).

        Raises:
            WorkerUnavailable: the worker could not be started.
        """
        if self._closed or any(w.is_ready for w in self._idle):
            return
        starting = [w for w in self._idle if w.alive]
        if not starting:
            if self._busy:
                return
            with anyio.CancelScope(shield=True):  # a spawn is quick; never leave one unowned
                self._idle.append(await EngineWorker.start())
            starting = self._idle[-1:]
        worker = starting[-1]  # the one `_take` then picks
        with anyio.move_on_after(worker.spawned_at + allowance_s - anyio.current_time()):
            await worker.ready()

    async def run(self, hard_timeout_s: float, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` in a worker, answered within `hard_timeout_s` of this call, the wait for a
        free, ready worker included: past it, a worker running the call is killed and a new one
        started.

        Raises:
            WorkerOverran: past `hard_timeout_s` in the call; its worker was killed, a new one started.
            WorkerNotReady: past `hard_timeout_s` before a worker was free and ready.
            WorkerDied: the worker died during the call; a new one was started.
            WorkerUnavailable: no worker could be started.
            Exception: what the call raised in the worker (the worker is kept).
        """
        payload = pickle.dumps((call, args), protocol=pickle.HIGHEST_PROTOCOL)
        worker: EngineWorker | None = None
        with anyio.move_on_after(hard_timeout_s):
            async with self._slots:
                worker = await self._take()
                self._busy.add(worker)
                try:
                    result: T = await self._call(worker, payload)
                    self._idle.append(worker)
                    return result
                finally:
                    self._busy.discard(worker)
        if worker is None:
            raise WorkerNotReady(f"no engine worker was ready within {hard_timeout_s:g} s")
        await self._replace()  # the call's worker was killed in `_call`
        raise WorkerOverran(f"the engine worker ran past {hard_timeout_s:g} s and was killed")

    async def _call(self, worker: EngineWorker, payload: bytes) -> T:
        try:
            return cast(T, await worker.call(payload))
        except Exception:
            # raised in the worker (which is fine: kept), or the worker died (replaced)
            if worker.alive:
                self._idle.append(worker)
            else:
                await self._replace()
            raise
        except BaseException:  # past the deadline or cancelled mid-call: its state is unknown
            await worker.kill()
            raise

    async def aclose(self) -> None:
        """Kill the idle workers (a busy one is killed by its caller's cancellation)."""
        self._closed = True
        idle, self._idle = self._idle, []
        for worker in idle:  # all signalled first: the server's exit waits for the slowest only
            with contextlib.suppress(ProcessLookupError):
                worker.process.kill()
        for worker in idle:
            await worker.kill()

    async def _take(self) -> EngineWorker:
        """A ready worker if one is idle, else the one started last (waited for), else a new one.
        Cancelled while it starts, the worker stays in the pool for the next call."""
        for worker in [w for w in self._idle if not w.alive]:  # died while idle: reap them
            self._idle.remove(worker)
            await worker.kill()
        ready = [w for w in self._idle if w.is_ready]
        if ready or self._idle:
            worker = (ready or self._idle)[-1]
            self._idle.remove(worker)
        else:
            with anyio.CancelScope(shield=True):  # a spawn is quick; never leave one unowned
                worker = await EngineWorker.start()
        try:
            await worker.ready()
        except anyio.get_cancelled_exc_class():
            self._idle.append(worker)
            raise
        return worker

    async def _replace(self) -> None:
        """Start a worker for the next call now: its imports run while the caller answers."""
        if self._closed:
            return
        with anyio.CancelScope(shield=True), contextlib.suppress(WorkerUnavailable):
            self._idle.append(await EngineWorker.start())
