"""Freed memory kept for reuse by `generate`'s process and its workers, not handed back at once.

A pool is built from arrays and tables of tens of megabytes each (a 1,000,000-share pool's columns,
its salts' text, its Merkle blocks), allocated and freed again for every pool. By default glibc's
malloc (numpy's arrays, Python's objects) unmaps every freed block above its mmap threshold (which
starts at 128 KiB and only grows as such blocks are freed) and trims its heap once twice that is
free at the top, so the next pool's arrays touch fresh pages, each of which the kernel must zero
(about 10 µs a page on the 2-core development VM; docs/scaling.md). `keep_freed_memory` sets the
threshold at once to glibc's largest, 32 MiB, and trims only above 256 MiB free. It changes no byte
of any file.

The environment it sets is inherited by every worker process the command spawns, whose glibc reads
it as it starts; this process takes the same settings through mallopt. A setting the caller's
environment already has is kept. polars' own allocator (jemalloc) is left as it is: told to keep
every freed page (`_RJEM_MALLOC_CONF=dirty_decay_ms:-1`) it cut the page faults left by more than half,
but one printed order's peak then rose above the 1 GiB a process may take. Not for `verify` either:
there these settings raised the largest eInstant order's peak above 1 GiB (with jemalloc's too).
The measurements are in docs/scaling.md.
"""

from __future__ import annotations

import ctypes
import os

MMAP_THRESHOLD = 32 << 20  # glibc's largest: blocks up to 32 MiB come from the heap and are reused
TRIM_THRESHOLD = 256 << 20  # the heap's free top is given back only above 256 MiB (peak memory)
# environment variable (read by glibc as a process starts) -> (mallopt option, value)
SETTINGS = {"MALLOC_MMAP_THRESHOLD_": (-3, MMAP_THRESHOLD), "MALLOC_TRIM_THRESHOLD_": (-1, TRIM_THRESHOLD)}

__all__ = ["MMAP_THRESHOLD", "SETTINGS", "TRIM_THRESHOLD", "keep_freed_memory"]


def keep_freed_memory() -> None:
    """Set glibc's malloc to keep freed memory, here (mallopt) and in every process started from
    here on (the environment). Another C library has no mallopt: nothing is done."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return
    for name, (option, value) in SETTINGS.items():
        if name not in os.environ:
            os.environ[name] = str(value)
            mallopt(option, value)
