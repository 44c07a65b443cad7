"""`poolgen seed new`: a private seed file never printed, its folder, and entropy contributions."""

from __future__ import annotations

import json
import stat

from poolgen.seeds.seed import commitment
from tests.support.cli import invoke


def test_seed_new_is_0600_and_never_printed(tmp_path):
    path = tmp_path / "s.seed"
    result = invoke("seed", "new", str(path))
    assert result.exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    seed = bytes.fromhex(path.read_text().strip())
    assert len(seed) == 32
    assert seed.hex() not in result.output
    assert result.stdout == f"seed commitment: {commitment(seed)}\n"
    again = invoke("seed", "new", str(path))
    assert again.exit_code == 2 and "already exists; not overwriting it" in again.stderr


def test_seed_new_creates_a_private_folder(tmp_path):
    path = tmp_path / "secrets" / "s.seed"
    assert invoke("seed", "new", str(path)).exit_code == 0
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_seed_ceremony_contributions(tmp_path):
    result = invoke("seed", "new", str(tmp_path / "c.seed"), "--entropy", "ab" * 16, "--entropy", "cd" * 20)
    assert result.exit_code == 0
    short = invoke("seed", "new", str(tmp_path / "d.seed"), "--entropy", "abcd")
    assert short.exit_code == 2
    assert short.stderr.strip() == "poolgen: error: --entropy #1: 2 bytes; give at least 16 (32 hex digits)"
    assert not (tmp_path / "d.seed").exists()


def test_seed_new_json_gives_the_file_and_commitment_never_the_seed(tmp_path):
    path = tmp_path / "s.seed"
    result = invoke("seed", "new", str(path), "--json")
    assert result.exit_code == 0, result.output
    seed = bytes.fromhex(path.read_text().strip())
    assert json.loads(result.stdout) == {"seed_file": str(path), "mode": "0600",
                                         "commitment": commitment(seed)}
    assert seed.hex() not in result.output
