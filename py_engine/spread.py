"""Long runs spread over processes or machines: the tournament, the soak, the tuning.

``run(fn, args, jobs=1, ray=None, progress=None)`` is ``[fn(x) for x in args]``, in the order
of ``args`` whoever computed each item:

- ``jobs`` > 1: in that many processes of this machine (``multiprocessing``; not in Pyodide,
  which has no processes: there the items are computed one after the other);
- ``ray="auto"``: on a Ray cluster, the one this machine belongs to (``ray start``) or else a
  local one started for the run; ``ray="HOST:PORT"`` the cluster whose head listens there
  (``ray start --head --port PORT``; docs/ai.md, "Runs on a cluster"). The engine's packages
  (``py_engine``, and ``research`` where a study runs) travel with the tasks, so the nodes run
  this tree's code. The items go in consecutive groups, about ``TASKS_PER_CPU`` tasks per core
  of the cluster (short deals would drown in the tasks' overhead otherwise). A worker that dies
  mid-task (its process killed, its node lost) has its task run again elsewhere (Ray's task
  retries, at most ``RETRIES`` times); each item is counted once, from the one run that
  returned. A task that raises fails the run.

``fn`` must be a module-level function and ``args`` picklable (they travel to other
processes). Ray is an optional extra (``pip install .[cluster]``): without it, or with an
address nothing answers at, ``connect`` raises ``SpreadError`` before any item is computed.
``progress`` (a label, e.g. "tournament") prints a line on stderr as items finish: how many
are done, the rate and the time left.
"""

from __future__ import annotations

import importlib
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

RETRIES = 3  # a task whose worker died is run again at most this many times
PROGRESS_EVERY = 10.0  # seconds between progress lines (and one when the run ends)
TASKS_PER_CPU = 4  # a Ray run's items go in about this many tasks per core of the cluster


_joined: list[str] = []  # the address this process joined a cluster at (``connect``)


class SpreadError(RuntimeError):
    """A run cannot be spread as asked (no Ray, no cluster at the address, bad options)."""


class Progress:
    """``label: 12/40 deals, 0.53/s, about 53 s left`` on ``stream`` (stderr) at most every
    ``every`` seconds, and when the last item is done."""

    def __init__(
        self,
        label: str,
        total: int,
        unit: str = "deals",
        stream: TextIO | None = None,
        every: float = PROGRESS_EVERY,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self.label, self.total, self.unit = label, total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.every, self.clock = every, clock
        self.t0 = clock()
        self.last = self.t0
        self.done = 0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        if self.done >= self.total or now - self.last >= self.every:
            self.last = now
            print(self.line(now), file=self.stream, flush=True)

    def line(self, now: float) -> str:
        secs = now - self.t0
        rate = self.done / secs if secs > 0 else 0.0
        text = f"{self.label}: {self.done}/{self.total} {self.unit}, {rate:.2f}/s"
        if self.done >= self.total:
            return text + f", done in {_duration(secs)}"
        if rate > 0:
            return text + f", about {_duration((self.total - self.done) / rate)} left"
        return text


def _duration(secs: float) -> str:
    secs = int(round(secs))
    if secs < 60:
        return f"{secs} s"
    if secs < 3600:
        return f"{secs // 60} min {secs % 60:02d} s"
    return f"{secs // 3600} h {secs % 3600 // 60:02d} min"


def check(jobs: int, ray: str | None) -> None:
    """Refuse options that cannot go together (before anything runs)."""
    if not isinstance(jobs, int) or jobs < 1:
        raise SpreadError(f"--jobs must be a whole number of at least 1, not {jobs!r}")
    if ray is not None and jobs > 1:
        raise SpreadError(
            "--jobs and --ray do not go together: with --ray the cluster's workers play the deals"
        )
    if ray is not None and not ray.strip():
        raise SpreadError("--ray needs an address (HOST:PORT of a cluster's head) or 'auto'")


def _ray_module():
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise SpreadError(
            "--ray needs Ray, which is not installed here: "
            "pip install '.[cluster]' (or pip install ray)"
        ) from None
    return ray


def _reachable(address: str, timeout: float = 5.0) -> None:
    """A plain TCP connection to ``HOST:PORT`` (``ray://HOST:PORT`` too), so that an address
    nothing answers at fails at once with a clear message (Ray itself retries for a minute)."""
    bare = address.split("://", 1)[-1]
    host, sep, port = bare.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise SpreadError(
            f"--ray {address!r}: expected HOST:PORT (the cluster head's address, "
            "as `ray start --head` prints it) or 'auto'"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise SpreadError(
            f"--ray {address}: no Ray cluster answers there ({e}); start one "
            f"with `ray start --head --port {port}` on {host}"
        ) from None


def _packages() -> list[str]:
    """The directories of the packages the tasks import: ``py_engine``, and ``research`` when
    it is importable (a study's run)."""
    import py_engine

    dirs = [str(Path(py_engine.__file__).parent)]
    try:
        research = importlib.import_module("research")
    except ImportError:
        pass
    else:
        dirs.append(str(Path(research.__file__ or ".").parent))
    return dirs


def connect(address: str) -> Any:
    """Join (or start, for ``auto`` with no cluster on this machine) the Ray cluster at
    ``address``; returns the ``ray`` module. Raises ``SpreadError`` with a clear message when
    Ray is missing or nothing answers at the address."""
    ray = _ray_module()
    if address != "auto":
        _reachable(address)
    if ray.is_initialized():
        if _joined and _joined[-1] == address:
            return ray
        ray.shutdown()  # another cluster than the one asked for
    _joined[:] = [address]
    env = {"py_modules": _packages()}
    quiet: dict = {"logging_level": "ERROR", "log_to_driver": False}
    if address == "auto":
        try:
            ray.init(address="auto", runtime_env=env, **quiet)
        except ConnectionError:
            # no cluster on this machine: a local one, for this run only
            ray.init(
                num_cpus=os.cpu_count() or 1, include_dashboard=False, runtime_env=env, **quiet
            )
        return ray
    try:
        ray.init(address=address, runtime_env=env, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise SpreadError(f"--ray {address}: cannot join the cluster there: {e}") from None
    return ray


def run(
    fn: Callable,
    args: list,
    jobs: int = 1,
    ray: str | None = None,
    progress: str | None = None,
    sizes: list[int] | None = None,
) -> list:
    """``[fn(x) for x in args]`` here, on ``jobs`` processes or on the Ray cluster ``ray``
    (module doc), with a progress line on stderr labelled ``progress`` when given; ``sizes``:
    how many deals each item plays (default one)."""
    check(jobs, ray)
    sizes = sizes if sizes is not None else [1] * len(args)
    bar = Progress(progress, sum(sizes)) if progress else None

    def done(i: int) -> None:
        if bar is not None:
            bar.step(sizes[i])

    if ray is not None:
        return _run_ray(connect(ray), fn, args, done)
    out: list = [None] * len(args)
    if jobs > 1 and len(args) > 1 and sys.platform != "emscripten":
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            for i, r in pool.imap_unordered(_indexed, [(fn, i, x) for i, x in enumerate(args)]):
                out[i] = r
                done(i)
            pool.close()  # the workers end on their own (no SIGTERM from terminate)
            pool.join()
        return out
    for i, x in enumerate(args):
        out[i] = fn(x)
        done(i)
    return out


def _indexed(job: tuple) -> tuple[int, Any]:
    fn, i, x = job
    return i, fn(x)


def _chunk(fn: Callable, items: list) -> list:
    """One Ray task: several items, so that short deals do not drown in the tasks' overhead."""
    return [fn(x) for x in items]


def _run_ray(ray: Any, fn: Callable, args: list, done: Callable[[int], None]) -> list:
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, -(-len(args) // (cpus * TASKS_PER_CPU)))
    chunks = [list(range(i, min(i + size, len(args)))) for i in range(0, len(args), size)]
    task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_chunk)
    refs = [task.remote(fn, [args[i] for i in chunk]) for chunk in chunks]
    where = {ref: chunk for ref, chunk in zip(refs, chunks)}
    out: list = [None] * len(args)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            for i, r in zip(where[ref], ray.get(ref)):
                out[i] = r
                done(i)
    return out
