"""poolgen/memory.py: freed memory kept for reuse, in the process and in the processes it starts.
Each case runs in a fresh interpreter: the settings are process-wide and read as a process starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from poolgen.memory import MMAP_THRESHOLD, SETTINGS, TRIM_THRESHOLD
from tests.support import ROOT

NAMES = tuple(SETTINGS)

# Three 20 MiB arrays made and freed four times; the page faults of each round.
ROUNDS = """
import json, resource, sys
if sys.argv[1] == "keep":
    from poolgen.memory import keep_freed_memory
    keep_freed_memory()
import numpy as np
def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    arrays = [np.ones(20 << 20, np.uint8) for _ in range(3)]
    del arrays
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(json.dumps([faults() for _ in range(4)]))
"""


def _python(code: str, *args: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in NAMES}
    done = subprocess.run([sys.executable, "-c", code, *args], env={**clean, "PYTHONPATH": str(ROOT), **env},
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def test_memory_freed_by_one_pool_is_reused_by_the_next_without_new_pages():
    default, kept = (json.loads(_python(ROUNDS, how)) for how in ("default", "keep"))
    assert min(default[1:]) > 500  # glibc trims the freed 60 MiB and faults it in again
    assert kept[1:] == [0, 0, 0]


def test_the_settings_reach_every_process_started_after_them_and_keep_the_callers_own():
    child = f"import os, json; print(json.dumps({{k: os.environ.get(k) for k in {NAMES!r}}}))"
    code = ("import subprocess, sys\nfrom poolgen.memory import keep_freed_memory\nkeep_freed_memory()\n"
            f"print(subprocess.run([sys.executable, '-c', {child!r}], capture_output=True, "
            "text=True).stdout)")
    seen = json.loads(_python(code))
    assert seen == {"MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD),
                    "MALLOC_TRIM_THRESHOLD_": str(TRIM_THRESHOLD)}
    own = json.loads(_python(code, MALLOC_TRIM_THRESHOLD_="7"))
    assert own == {"MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD), "MALLOC_TRIM_THRESHOLD_": "7"}
