"""Start-up (issue 28): loading the command line, asking it for help or for its version, or making a
usage error imports none of the heavy libraries (docs/scaling.md, "Start-up"). Each command imports
them when it runs, so a desk running one `poolgen` command per ticket does not pay for all of them.

Each case runs in a fresh interpreter, as the installed commands do, and reads `sys.modules` as the
process ends: the names of what was imported, not a timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("polars", "numpy", "pyarrow", "scipy", "reportlab", "cryptography")

# Runs one command line as `poolgen` (or `python -m audit`) does, then writes which of the packages
# named in argv[2] (comma-separated) it imported to the file argv[1], from an exit function (poolgen's
# and audit's `finish` run those).
_PROBE = """
import atexit, json, runpy, sys
out, names, program, *args = sys.argv[1:]
def note():
    with open(out, "w") as f:
        json.dump(sorted({m.split(".")[0] for m in sys.modules} & set(names.split(","))), f)
atexit.register(note)
if program == "poolgen":
    sys.argv = ["poolgen", *args]
    from poolgen.cli import run
    run()
else:
    sys.argv = ["audit", *args]
    runpy.run_module("audit", run_name="__main__", alter_sys=True)
"""


def _heavy_imports(tmp_path: Path, program: str, *args: str) -> tuple[list[str], int]:
    out = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(out), ",".join(HEAVY), program, *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), done.stderr
    return json.loads(out.read_text()), done.returncode


def test_loading_every_command_module_imports_no_heavy_library():
    modules = sorted(p.stem for p in (ROOT / "poolgen" / "cli").glob("*.py") if p.stem != "__init__")
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module('poolgen.cli.' + m)\n"
            "import audit.cli\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert {"main", "generate", "verify", "validate", "report", "proof"} <= set(modules)


@pytest.mark.parametrize(("program", "args", "code"), [
    ("poolgen", ("--help",), 0),
    ("poolgen", ("-h",), 0),
    ("poolgen", (), 2),  # no arguments: the help, exit 2 (as click has it)
    ("poolgen", ("check", "--help"), 0),
    ("poolgen", ("validate", "--help"), 0),
    ("poolgen", ("generate", "--help"), 0),
    ("poolgen", ("verify", "--help"), 0),
    ("poolgen", ("report", "--help"), 0),
    ("poolgen", ("ceremony", "new", "--help"), 0),
    ("poolgen", ("rng", "bytes", "--help"), 0),
    ("poolgen", ("--version",), 0),
    ("poolgen", ("-V",), 0),
    ("poolgen", ("help", "generate"), 0),
    ("poolgen", ("frobnicate",), 2),  # a usage error
    ("audit", ("--help",), 0),
    ("audit", ("verify", "--help"), 0),
    ("audit", ("check-proof", "--help"), 0),
    ("audit", ("-V",), 0),
    ("audit", ("help", "verify"), 0),
], ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_help_version_and_usage_errors_import_no_heavy_library(tmp_path, program, args, code):
    heavy, exit_code = _heavy_imports(tmp_path, program, *args)
    assert exit_code == code
    assert heavy == []


def test_the_probe_sees_a_heavy_library_a_command_imports(tmp_path):
    """The guard above can fail: a command that reads a spec imports numpy, and the probe says so."""
    spec = sorted((ROOT / "specs").glob("*.toml"))[0]
    heavy, exit_code = _heavy_imports(tmp_path, "poolgen", "check", "--json", str(spec))
    assert exit_code == 0
    assert "numpy" in heavy


def test_a_light_command_imports_no_heavy_library(tmp_path):
    """`poolgen seed new` needs none of them, and loads none: a command pays for its own imports only."""
    heavy, exit_code = _heavy_imports(tmp_path, "poolgen", "seed", "new", str(tmp_path / "run.seed"))
    assert exit_code == 0
    assert (tmp_path / "run.seed").stat().st_mode & 0o777 == 0o600
    assert heavy == []
