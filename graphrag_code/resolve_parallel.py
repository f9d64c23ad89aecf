"""The call-site pass, most of resolution's time, shared among processes.

The files, in resolution order, are cut into contiguous shares of about equal numbers of calls. The resolver
forks a child for every share but the first, resolves the first itself, then replays each child's writes in
share order. Each call site's outcome is a function of the repository's facts and of the tables the passes
before it built (its memos only cache such answers: ``TypeRules.receiver_class`` keeps an answer cut short by the
inference depth under that depth, and every class's bases are computed before the pass, ``_warm_bases``), so a
share resolved in a child gives what it gives in the parent. The child
records every edge it adds and every unresolved call it keeps, in order; replaying them after the parent's own
share gives the serial pass's result exactly, down to the order of lines and lists
(tests/test_resolve_parallel.py compares them on every language's fixtures).

A child that fails, dies or stays silent too long costs time, not edges: its share is resolved in the parent.
"""

from __future__ import annotations

import ctypes
import gc
import os
import pickle
import select
import signal
import struct
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .config import available_cores

if TYPE_CHECKING:
    from .resolve import _Resolver, _Sites

# call sites per process below which a fork, and sending its result back, cost more than the share saves
# (a site takes 50-100 microseconds: 3,000 are 0.15-0.3 s; bench/README.md)
MIN_SITES_PER_PROCESS = 3000
MAX_PROCESSES = 4
_HEADER = struct.Struct("!Q")
_PR_SET_PDEATHSIG = 1
# a child still silent this long after the parent finished its own share (of the same size) is given up on
_GRACE_SECONDS, _GRACE_FACTOR = 60.0, 10.0


def can_fork() -> bool:
    """Linux only: a forked child shares the resolver's tables copy-on-write (macOS's fork is unsafe once system
    frameworks run threads; Windows has none)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def processes_for(workers: int | None, sites: int) -> int:
    """Processes for the call-site pass over ``sites`` call sites: ``workers`` (``--workers``; 0 or 1: this
    process alone), by default one per core (``config.available_cores``, at most four); never more than one per
    MIN_SITES_PER_PROCESS sites."""
    if not can_fork():
        return 1
    if workers is None:
        workers = min(available_cores(), MAX_PROCESSES)
    return max(1, min(workers, sites // MIN_SITES_PER_PROCESS))


def shares(paths: list[str], sizes: dict[str, int], n: int) -> list[list[str]]:
    """``paths`` cut, in order, into at most ``n`` non-empty runs of about equal total ``sizes``."""
    total = sum(sizes[p] for p in paths)
    out: list[list[str]] = [[]]
    done = 0
    for path in paths:
        if out[-1] and len(out) < n and done >= total * len(out) / n:
            out.append([])
        out[-1].append(path)
        done += sizes[path]
    return out


@dataclass
class _Child:
    pid: int
    fd: int
    share: list[str]
    failed: str | None = None            # why it never started (the parent resolves its share)
    exit_status: int | None = None


def site_pass(resolver: "_Resolver", paths: list[str], sites: "_Sites", processes: int) -> list[str]:
    """Run ``resolver._sites_of`` over ``paths`` in up to ``processes`` processes; returns warnings (a child
    whose share the parent had to resolve itself)."""
    parts = shares(paths, {p: len(resolver.files[p].calls) for p in paths}, processes) if processes > 1 else [paths]
    if len(parts) == 1:
        resolver._sites_of(paths, sites)
        return []
    children: list[_Child] = []
    warnings: list[str] = []
    try:
        for share in parts[1:]:
            children.append(_fork(resolver, share, sites))
        started = time.monotonic()
        resolver._sites_of(parts[0], sites)
        grace = max(_GRACE_SECONDS, _GRACE_FACTOR * (time.monotonic() - started))
        for child in children:
            result = child.failed or _receive(child, time.monotonic() + grace)
            if isinstance(result, str):
                warnings.append(f"resolving calls in a second process failed ({result}); its "
                                f"{len(child.share)} files were resolved in the indexer's process")
                resolver._sites_of(child.share, sites)
            else:
                _replay(resolver, sites, result)
    finally:
        for child in children:
            _reap(child)
    return warnings


def _fork(resolver: "_Resolver", share: list[str], sites: "_Sites") -> _Child:
    """A child resolving ``share``, or one that ``failed`` to start (no process or pipe to be had: the parent
    resolves the share)."""
    try:
        read_fd, write_fd = os.pipe()
    except OSError as exc:
        return _Child(0, -1, share, failed=f"no pipe: {exc}")
    # Ctrl-C (to the whole process group) held until the child ignores it: caught between fork and
    # _child_main, its KeyboardInterrupt would unwind the child into the indexer's own handlers
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError as exc:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(read_fd)
        os.close(write_fd)
        return _Child(0, -1, share, failed=f"no process: {exc}")
    if pid == 0:                                            # the child: never returns
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent's to handle: it reaps this process
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            _die_with(parent)
            os.close(read_fd)
            _child_main(resolver, share, sites, write_fd)
        finally:
            os._exit(1)
    signal.pthread_sigmask(signal.SIG_SETMASK, held)      # the parent: Ctrl-C as before (a pending one now)
    os.close(write_fd)
    return _Child(pid, read_fd, share)


def _die_with(parent: int) -> None:
    """Be killed when the indexer dies (``kill -9``, an OOM kill): else the child resolves its whole share for
    nobody before its write fails (Linux's PR_SET_PDEATHSIG; without it, that is what happens)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:             # it died before the request took effect
        os._exit(1)


def _child_main(resolver: "_Resolver", share: list[str], sites: "_Sites", fd: int) -> None:
    status = 1
    try:
        # no collection: a finalizer of the parent's objects (a driver's socket) must not run here
        gc.disable()
        out = resolver.out
        base = (dict(out.stats), set(out.external_modules), len(resolver.dispatched), len(resolver.lsp_abstract),
                set(resolver.reflected), set(sites.outcomes), len(sites.parameter_calls))
        resolver._log = []
        resolver._sites_of(share, sites)
        result = {
            "log": resolver._log,
            "stats": {k: v - base[0].get(k, 0) for k, v in out.stats.items()},
            "external_modules": out.external_modules - base[1],
            "dispatched": resolver.dispatched[base[2]:],
            "lsp_abstract": resolver.lsp_abstract[base[3]:],
            "reflected": resolver.reflected - base[4],
            "outcomes": {k: v for k, v in sites.outcomes.items() if k not in base[5]},
            "parameter_calls": sites.parameter_calls[base[6]:],
        }
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(fd, view):]
        status = 0
    except BaseException:        # noqa: BLE001 - whatever it was (status 1), the parent resolves the share itself
        pass
    finally:
        os._exit(status)


def _receive(child: _Child, deadline: float) -> dict[str, Any] | str:
    """The child's result, or why there is none. Read up to the length its header announces, not to the end of
    the pipe: another thread's fork (a second index job of the API) may hold a copy of its write end."""
    poller = select.poll()                  # not select(): a descriptor past 1023 is out of its range
    poller.register(child.fd, select.POLLIN)
    data, wanted = bytearray(), None
    while wanted is None or len(data) < wanted:
        if not poller.poll(max(0, int((deadline - time.monotonic()) * 1000))):
            _reap(child)
            return "it did not answer in time"
        chunk = os.read(child.fd, 1 << 20)
        if not chunk:
            _reap(child, wait=True)
            return f"it exited with status {child.exit_status} before sending all of its result"
        data += chunk
        if wanted is None and len(data) >= _HEADER.size:
            wanted = _HEADER.size + _HEADER.unpack_from(data)[0]
    try:
        return pickle.loads(memoryview(data)[_HEADER.size:wanted])
    except Exception as exc:     # noqa: BLE001 - a garbled result is a failed child
        return f"its result could not be read: {exc}"


def _reap(child: _Child, wait: bool = False) -> None:
    """Close the child's pipe and wait for it: it has closed its end (``wait``), or it is killed if it still
    runs (its result read, or given up on)."""
    if child.fd >= 0:
        os.close(child.fd)
        child.fd = -1
    if child.pid:
        pid, child.pid = child.pid, 0
        try:
            done, status = os.waitpid(pid, 0 if wait else os.WNOHANG)
            if done == 0:
                os.kill(pid, signal.SIGKILL)
                done, status = os.waitpid(pid, 0)
            child.exit_status = os.waitstatus_to_exitcode(status)
        except (ChildProcessError, ProcessLookupError):   # reaped already (SIGCHLD ignored by an embedder)
            pass


def _replay(resolver: "_Resolver", sites: "_Sites", result: dict[str, Any]) -> None:
    """Apply a child's share to the parent's resolution as if the parent had resolved it next."""
    out = resolver.out
    for op in result["log"]:
        if op[0] == "edge":
            resolver._add_edge(*op[1:])
        else:
            out.unresolved.setdefault(op[1], []).append(op[2])
    for key, delta in result["stats"].items():
        out.stats[key] += delta
    out.external_modules |= result["external_modules"]
    resolver.dispatched += result["dispatched"]
    resolver.lsp_abstract += result["lsp_abstract"]
    resolver.reflected |= result["reflected"]
    sites.outcomes.update(result["outcomes"])
    sites.parameter_calls += result["parameter_calls"]
