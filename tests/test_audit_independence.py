"""audit/ must never import poolgen: an auditor's verifier that shares the generator's code proves nothing.

Step 7 (regenerating from the seed) needs the generator; `poolgen verify` passes it in as a
function, so no module of audit/ imports poolgen, not even lazily.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

AUDIT = Path(__file__).resolve().parents[1] / "audit"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_audit_module_imports_poolgen():
    files = sorted(AUDIT.rglob("*.py"))
    assert AUDIT / "styles" / "__init__.py" in files  # rglob reaches the subpackages
    offenders = [str(f.relative_to(AUDIT)) for f in files if "poolgen" in _imports(f)]
    assert offenders == []


def test_importing_audit_loads_no_poolgen_module():
    code = ("import importlib, pkgutil, sys, audit\n"
            "for m in pkgutil.walk_packages(audit.__path__, 'audit.'):\n"
            "    if m.name != 'audit.__main__':\n"
            "        importlib.import_module(m.name)\n"
            "bad = sorted(n for n in sys.modules if n == 'poolgen' or n.startswith('poolgen.'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_guard_can_fail(tmp_path):
    bad = tmp_path / "sneaky.py"
    bad.write_text("from poolgen.loader import load_spec\n")
    assert "poolgen" in _imports(bad)
