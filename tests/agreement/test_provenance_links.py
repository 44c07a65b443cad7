"""The code hash and symbolic links (docs/provenance.md): Python imports through a link in the package
folder, so a link anywhere in the hashed tree (to a folder, a file or nothing; a `__pycache__` that is
one too) is refused by both implementations, v1 and v2, in one line naming it, and by `audit code-hash`,
`poolgen --version` and `poolgen generate` (which then makes nothing). Links inside real __pycache__
folders, which the hash leaves out, change nothing. Until 2026-12-04 a linked subfolder was silently
left out of the hash: code imported from it could change under the same hash."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import audit
from audit.cli import app as audit_app
from audit.errors import UnusableInput
from audit.provenance import code_hash
from poolgen.errors import PoolgenError
from poolgen.run.provenance import code_digest, code_entry, package_folder
from tests.support import SEED_A, small_happy_holidays


def _copy(tmp_path: Path) -> Path:
    """A copy of the installed package tree, without its caches, as tmp_path/pkg/poolgen."""
    copy = tmp_path / "pkg" / "poolgen"
    shutil.copytree(package_folder(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _link(copy: Path, how: str) -> Path:
    """Put a symbolic link of kind `how` into the package tree `copy`; the link's path."""
    away = copy.parent.parent / "elsewhere"
    away.mkdir()
    if how == "a linked subfolder":  # the code still imports: `poolgen.rng` is the folder linked
        shutil.move(copy / "rng", away / "rng")
        (copy / "rng").symlink_to(away / "rng", target_is_directory=True)
        return copy / "rng"
    if how == "a linked file":
        shutil.move(copy / "rng" / "drbg.py", away / "drbg.py")
        (copy / "rng" / "drbg.py").symlink_to(away / "drbg.py")
        return copy / "rng" / "drbg.py"
    if how == "a link to nothing":
        (copy / "styles" / "gone.py").symlink_to(away / "gone.py")
        return copy / "styles" / "gone.py"
    if how == "a relative link inside the tree":
        (copy / "styles" / "rng").symlink_to(Path("..") / "rng", target_is_directory=True)
        return copy / "styles" / "rng"
    assert how == "a linked __pycache__"
    (copy / "run" / "__pycache__").symlink_to(away, target_is_directory=True)
    return copy / "run" / "__pycache__"


def _refusal(link: Path) -> str:
    return f"{link}: a symbolic link in the package folder; the code hash follows none (docs/provenance.md)"


HOW = ["a linked subfolder", "a linked file", "a link to nothing", "a relative link inside the tree",
       "a linked __pycache__"]


@pytest.mark.parametrize("how", HOW)
def test_a_symbolic_link_in_the_package_tree_is_refused_by_both_implementations(tmp_path, how):
    copy = _copy(tmp_path)
    link = _link(copy, how)
    with pytest.raises(PoolgenError) as made:
        code_digest(copy)
    assert str(made.value) == _refusal(link)
    for version in (2, 1):
        with pytest.raises(UnusableInput) as audited:
            code_hash(copy, version)
        assert str(audited.value) == _refusal(link)


def test_the_first_link_by_path_is_named(tmp_path):
    copy = _copy(tmp_path)
    (copy / "styles" / "b.py").symlink_to(copy / "money.py")
    (copy / "loader" / "a.py").symlink_to(copy / "money.py")
    (copy / "z.py").symlink_to(copy / "money.py")
    with pytest.raises(PoolgenError, match="^" + str(copy / "loader" / "a.py") + ": "):
        code_digest(copy)
    with pytest.raises(UnusableInput, match="^" + str(copy / "loader" / "a.py") + ": "):
        code_hash(copy)


def test_links_inside_pycache_folders_change_nothing(tmp_path):
    copy = _copy(tmp_path)
    (copy / "rng" / "__pycache__").mkdir()
    (copy / "rng" / "__pycache__" / "drbg.cpython-311.pyc").symlink_to(tmp_path / "anything")
    (copy / "rng" / "__pycache__" / "linked").symlink_to(copy / "rng", target_is_directory=True)
    expected = (code_entry()["sha256"], code_entry()["files"])
    assert code_digest(copy) == code_hash(copy) == expected


def test_audit_code_hash_refuses_a_link_in_one_line(tmp_path):
    copy = _copy(tmp_path)
    link = _link(copy, "a linked subfolder")
    for extra in ([], ["--v1"], ["--json"]):
        result = CliRunner().invoke(audit_app, ["code-hash", str(copy), *extra])
        assert result.exit_code == 2
        assert (result.stdout, result.stderr) == ("", f"audit: error: {_refusal(link)}\n")


def _poolgen(copy: Path, *args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m poolgen ARGS` importing poolgen from the package tree `copy`, and audit from this tree."""
    path = os.pathsep.join([str(copy.parent), str(Path(audit.__file__).resolve().parent.parent)])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "poolgen", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, check=False, timeout=300)


def test_poolgen_version_and_generate_refuse_a_link_in_their_own_package(tmp_path):
    """The package runs from the linked folder (poolgen.rng imports through the link); the generator
    states no hash of it and makes no run."""
    copy = _copy(tmp_path)
    link = _link(copy, "a linked subfolder")
    refused = (2, "", f"poolgen: error: {_refusal(link)}\n")
    version = _poolgen(copy, "--version", cwd=tmp_path)
    assert (version.returncode, version.stdout, version.stderr) == refused
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    spec = small_happy_holidays(tmp_path, 3000)
    made = _poolgen(copy, "generate", spec, "--out", tmp_path / "runs", "--seed-file", seed, "--unsigned",
                    "--workers", "1", cwd=tmp_path)
    assert (made.returncode, made.stdout, made.stderr) == refused
    assert not (tmp_path / "runs").exists()
