"""Build provenance: the code hash of docs/provenance.md (v2, and v1 of older runs), computed three ways,
and where it is shown."""

from __future__ import annotations

import hashlib
import shutil

from typer.testing import CliRunner

import poolgen
from audit.cli import app as audit_app
from audit.provenance import code_comparison, code_hash
from audit.read.codehash import ALGORITHMS
from audit.read.fields import CODE_HASH, CODE_HASH_V1
from poolgen.cli.main import app
from poolgen.run.provenance import ALGORITHM, code_digest, code_entry, package_folder


def _tiny_package(root):
    (root / "sub").mkdir(parents=True)
    (root / "__pycache__").mkdir()
    (root / "sub" / "__pycache__").mkdir()
    files = {"__init__.py": b"x = 1\n", "sub/b.py": b"", "sub_a.py": b"y = 2\n", "ab.py": "é\n".encode()}
    data = {"notes.txt": b"package data", "sub/words.txt": b"cat\ndog\n", "old.pyc": b"sourceless module"}
    for rel, content in (files | data).items():
        (root / rel).write_bytes(content)
    (root / "__pycache__" / "ab.cpython-311.pyc").write_bytes(b"compiled cache")
    (root / "sub" / "__pycache__" / "words.txt").write_bytes(b"in a cache folder")
    return files, files | data


def _documented(label, files):
    h = hashlib.sha256(label)
    for rel in sorted(files, key=str.encode):
        h.update(len(rel).to_bytes(8, "big") + rel.encode() + len(files[rel]).to_bytes(8, "big") + files[rel])
    return h.hexdigest()


def test_the_hash_is_the_documented_one(tmp_path):
    source, every = _tiny_package(tmp_path / "pkg")
    assert sorted(every, key=str.encode) == [  # by UTF-8 bytes: '/' (0x2f) before '_' (0x5f)
        "__init__.py", "ab.py", "notes.txt", "old.pyc", "sub/b.py", "sub/words.txt", "sub_a.py"]
    v2 = (_documented(b"poolgen/code/v2", every), 7)
    assert code_digest(tmp_path / "pkg") == v2
    assert code_hash(tmp_path / "pkg") == v2  # audit's own implementation
    assert code_hash(tmp_path / "pkg", 1) == (_documented(b"poolgen/code/v1", source), 4)


def test_the_algorithm_texts_are_step_5s(tmp_path):
    assert ALGORITHM == CODE_HASH == ALGORITHMS[2]
    assert ALGORITHMS[1] == CODE_HASH_V1
    assert CODE_HASH.startswith('SHA-256("poolgen/code/v2" || ')
    assert CODE_HASH_V1.startswith('SHA-256("poolgen/code/v1" || ')


def test_changing_the_word_list_changes_the_v2_hash_and_not_the_v1(tmp_path):
    """The crossword word list decides layouts: v1, over *.py files only, missed a change to it."""
    copy = tmp_path / "poolgen"
    shutil.copytree(package_folder(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = code_hash(copy), code_hash(copy, 1)
    assert before[0] == (code_entry()["sha256"], code_entry()["files"])
    words = copy / "styles" / "crossword" / "words.txt"
    words.write_bytes(words.read_bytes() + b"zzz\n")
    assert code_hash(copy, 1) == before[1]
    assert code_hash(copy)[0] != before[0][0]
    assert code_digest(copy)[0] == code_hash(copy)[0]


def test_audit_and_poolgen_agree_on_the_real_package():
    folder = package_folder()
    every = [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.relative_to(folder).parts]
    assert code_hash(folder) == code_digest(folder) == (code_entry()["sha256"], len(every))
    assert folder / "styles" / "crossword" / "words.txt" in every
    assert code_hash(folder, 1)[1] == len([p for p in every if p.suffix == ".py"])


def test_one_changed_byte_changes_the_hash(tmp_path):
    copy = tmp_path / "poolgen"
    shutil.copytree(package_folder(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert code_hash(copy)[0] == code_entry()["sha256"]
    target = copy / "rng" / "sampling.py"
    target.write_bytes(target.read_bytes().replace(b"todo.size", b"todo.size ", 1))
    assert code_hash(copy)[0] != code_entry()["sha256"]


def test_version_and_audit_code_hash_print_it(tmp_path):
    code = code_entry()
    assert code == {"algorithm": CODE_HASH, "sha256": code_digest(package_folder())[0],
                    "files": code_digest(package_folder())[1]}
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == (f"poolgen {poolgen.__version__}\ncode SHA-256 {code['sha256']} "
                             f"({code['files']} files, poolgen/code/v2; docs/provenance.md)\n")
    result = CliRunner().invoke(audit_app, ["code-hash", str(package_folder())])
    assert result.stdout == f"code SHA-256 {code['sha256']} ({code['files']} files, poolgen/code/v2)\n"
    v1, count = code_hash(package_folder(), 1)
    result = CliRunner().invoke(audit_app, ["code-hash", str(package_folder()), "--v1"])
    assert result.stdout == f"code SHA-256 {v1} ({count} source files, poolgen/code/v1)\n"
    result = CliRunner().invoke(audit_app, ["code-hash", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"audit: error: {tmp_path}: not a package folder (no __init__.py)\n"


def test_step_7_says_whether_the_code_is_the_same():
    run = {"code": {"sha256": "ab" * 32}}
    assert code_comparison(run, run) == ("regenerated by the same code that made the run (code SHA-256 "
                                         "abababababababab...)")
    assert code_comparison(run, {"code": {"sha256": "cd" * 32}}) == (
        "regenerated by OTHER code than made the run (code SHA-256 cdcdcdcdcdcdcdcd..., the run's "
        "abababababababab...)")
    assert code_comparison({"version": "0.1.0"}, run) == (
        "the manifest records no code hash: whether the same code regenerated it is unknown")


def test_step_7_says_when_the_two_hashes_are_of_different_kinds():
    run = {"code": {"algorithm": CODE_HASH_V1, "sha256": "ab" * 32}}
    now = {"code": {"algorithm": CODE_HASH, "sha256": "cd" * 32}}
    assert code_comparison(run, now) == (
        "the run's code hash is another kind (abababababababab..., v1) than the regenerating generator's "
        "(cdcdcdcdcdcdcdcd..., v2): compare the run's with `python -m audit code-hash` over a reviewed tree")
