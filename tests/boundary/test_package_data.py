"""Every file of the package folders that is not source ships in the wheel: setuptools puts in only the
*.py files and what `[tool.setuptools.package-data]` names (no MANIFEST.in, no VCS plugin here). The
crossword word list was left out, so an installed poolgen had no word list, and the code hash of
an installation (docs/provenance.md, v2: every file of the package folder) could not be a reviewed
checkout's."""

from __future__ import annotations

import fnmatch
import tomllib

import pytest

from tests.support import ROOT


@pytest.mark.parametrize("package", ["poolgen", "audit"])
def test_every_data_file_of_the_package_is_package_data(package):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"][package]
    folder = ROOT / package
    data = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.suffix not in {".py", ".pyc"}
                  and "__pycache__" not in p.relative_to(folder).parts)
    assert data, "no data file at all: the test would prove nothing"
    assert [f for f in data if not any(fnmatch.fnmatchcase(f, pat) for pat in patterns)] == []
