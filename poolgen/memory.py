"""Freed memory kept for reuse by a command's process and its workers, not handed back to the system.

A pool is built from arrays and tables of tens of megabytes each (a 1,000,000-share pool's columns,
its salts' text, its Merkle blocks), allocated and freed again for every pool. By default both
allocators of the process give large freed blocks back to the system at once or within seconds:
glibc's malloc (numpy, Python) unmaps every block above its mmap threshold and trims the heap, and
the jemalloc inside polars purges its dirty pages on a background thread. The next pool's arrays
then touch fresh pages, each of which the kernel must zero (measured on the 2-core development VM:
about a fifth of an order's CPU seconds, docs/scaling.md). `keep_freed_memory` makes both keep what
they have: a process's resident memory stays at its peak (which is what bench/run.py reports), the
pages are reused. It changes no byte of any file.

It must run before polars is first imported (jemalloc reads its settings then), so the command line
calls it first of all, for `generate` only; the environment it sets is inherited by every worker
process the command spawns, whose glibc and jemalloc read it as they start. A setting the caller's
environment already has is kept. Not for `verify`: it saves verify as much (a third of its CPU
seconds on Primetime Payout's order), but verify's workers hold more tables at once and its peak
rose from 952 to 1,044 MiB on Hand to Hand Tactics' order, above the 1 GiB a process may take
(docs/scaling.md).
"""

from __future__ import annotations

import ctypes
import os

# glibc reads these as it starts (worker processes); this process takes them through mallopt.
MMAP_THRESHOLD = 32 << 20  # glibc's largest: blocks up to 32 MiB come from the heap and are reused
TRIM_THRESHOLD = 256 << 20  # the heap's free top is given back only above 256 MiB (peak memory)
_GLIBC = {"MALLOC_MMAP_THRESHOLD_": (-3, MMAP_THRESHOLD), "MALLOC_TRIM_THRESHOLD_": (-1, TRIM_THRESHOLD)}
# polars' jemalloc: freed pages are never purged while the process lives (`-1`)
JEMALLOC = ("_RJEM_MALLOC_CONF", "dirty_decay_ms:-1,muzzy_decay_ms:-1")

__all__ = ["JEMALLOC", "MMAP_THRESHOLD", "TRIM_THRESHOLD", "keep_freed_memory"]


def keep_freed_memory() -> None:
    """Set both allocators to keep freed memory, here (glibc through mallopt; jemalloc if polars is
    not loaded yet) and in every process started from here on (the environment)."""
    os.environ.setdefault(*JEMALLOC)
    try:
        mallopt = ctypes.CDLL(None).mallopt  # glibc's; another C library has none: nothing to do
    except (AttributeError, OSError):
        return
    for name, (option, value) in _GLIBC.items():
        if name not in os.environ:
            os.environ[name] = str(value)
            mallopt(option, value)
