"""Reading a run folder for the PDFs: its manifest (bytes and document), spec and pool files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from poolgen.errors import RunError
from poolgen.manifest import MANIFEST
from poolgen.spec import Spec, load_spec

__all__ = ["RunFolder", "open_run", "spec_for"]


@dataclass(frozen=True)
class RunFolder:
    """A run folder whose manifest has been read. Build it with `open_run`."""

    path: Path
    manifest_bytes: bytes
    manifest: dict

    @property
    def name(self) -> str:
        return str(self.path)

    @property
    def kind(self) -> str:
        return self.manifest["game"]["kind"]

    @property
    def pools(self) -> list[dict]:
        return self.manifest["pools"]

    def pool(self, pool_id: str) -> dict:
        for p in self.pools:
            if p["id"] == pool_id:
                return p
        known = ", ".join(p["id"] for p in self.pools)
        raise RunError(f"{self.name}: no pool {pool_id!r} in this run (pools: {known})")

    def pool_file(self, pool_id: str) -> Path:
        entry = self.pool(pool_id)
        path = self.path / entry["file"]["name"]
        if not path.is_file():
            raise RunError(f"{self.name}: pool file {entry['file']['name']} is missing")
        return path

    def scan(self, pool_id: str) -> pl.LazyFrame:
        return pl.scan_parquet(self.pool_file(pool_id))

    def read(self, pool_id: str, columns: list[str]) -> pl.DataFrame:
        """Some columns of a whole pool, in pool order."""
        try:
            return pl.read_parquet(self.pool_file(pool_id), columns=columns)
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise RunError(f"{self.name}: cannot read pool {pool_id}: {exc}") from None

    def rows(self, pool_id: str, positions: list[int]) -> pl.DataFrame:
        """The full rows at the given positions of a pool, in position order."""
        try:
            return (self.scan(pool_id).filter(pl.col("position").is_in(positions))
                    .sort("position").collect())
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise RunError(f"{self.name}: cannot read pool {pool_id}: {exc}") from None


def open_run(path: Path | str) -> RunFolder:
    """Read a run folder's manifest; a folder without one is not a run."""
    path = Path(path)
    if not path.is_dir():
        raise RunError(f"{path}: no such run folder")
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise RunError(f"{path}: no {MANIFEST}; not a poolgen run folder")
    try:
        raw = manifest_path.read_bytes()
    except OSError as exc:
        raise RunError(f"{manifest_path}: cannot read: {exc.strerror or exc}") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"{manifest_path}: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("pools"), list) or "game" not in doc:
        raise RunError(f"{manifest_path}: not a poolgen manifest (no game or pools)")
    return RunFolder(path, raw, doc)


def _default_spec_dir() -> Path:
    # As poolgen.cli.common.default_spec_dir (the library does not import the CLI).
    here = Path("specs")
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "specs"


def spec_for(run: RunFolder, spec_path: Path | None, *, must_match: bool) -> Spec:
    """The run's spec: `spec_path` if given, else specs/<the manifest's spec file name>.

    With `must_match`, a spec whose SHA-256 differs from the manifest's is refused: its symbols
    might not be the ones the run's codes stand for.
    """
    wanted = run.manifest.get("spec", {})
    if spec_path is None:
        name = wanted.get("file")
        if not name:
            raise RunError(f"{run.name}: the manifest names no spec file; give it with --spec")
        spec_path = _default_spec_dir() / name
        if not spec_path.is_file():
            raise RunError(f"{run.name}: spec {name} not found in {_default_spec_dir()}; "
                           f"give it with --spec")
    spec = load_spec(spec_path)
    if spec.rules != run.manifest["game"].get("rules"):
        raise RunError(f"{spec_path}: a {spec.rules} spec, but the run is a "
                       f"{run.manifest['game'].get('rules')} run")
    if must_match and spec.sha256 != wanted.get("sha256"):
        raise RunError(f"{spec_path}: SHA-256 differs from that of the spec the run was made from "
                       f"({wanted.get('file')}); give the original with --spec")
    return spec
