"""Reading a run folder for the PDFs and proofs: its manifest (bytes, document, validated form),
spec and pool files.

`open_run` refuses a manifest that is not one poolgen can read: it is parsed and checked by the
verifier's own parser (`audit.read.manifest.Manifest.parse`: every pool with its tiers, file, Merkle
root and columns) and, beyond that, for what the PDFs show (game name and regulation, the printed
game's number, the run's totals). Every read of a pool file goes through `RunFolder`, which turns
any failure of polars into one `RunError` naming the run and the pool.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from audit.errors import UnusableInput
from audit.read.limits import read_manifest_bytes
from audit.read.manifest import Manifest, ManifestError, PoolEntry
from audit.read.parquet import literal
from audit.read.runfiles import IMAGING_COLUMNS, POOL_COLUMNS, check_run_parquet, read_run_bytes, run_file
from poolgen.errors import RunError
from poolgen.game.model import Game
from poolgen.loader import default_spec_dir, load_spec
from poolgen.money import CURRENCIES, Currency
from poolgen.run.manifest import MANIFEST

__all__ = ["RunFolder", "open_run", "spec_for"]

TOTALS = ("pools", "tickets", "winners", "prize_cost_cents", "sales_cents")
TEXT_COLUMNS = frozenset({"ticket", "tier"})


@dataclass(frozen=True)
class RunFolder:
    """A run folder whose manifest has been read and validated. Build it with `open_run`.

    `manifest` is the document as written (every field the PDFs use has been checked);
    `parsed` is the verifier's validated form of it."""

    path: Path
    manifest_bytes: bytes
    manifest: dict[str, Any]
    parsed: Manifest

    @property
    def name(self) -> str:
        return str(self.path)

    @property
    def kind(self) -> str:
        return self.parsed.kind

    @property
    def currency(self) -> Currency:
        """The game's currency: the manifest's `game.currency` (checked by `parsed`), USD when absent."""
        return CURRENCIES[self.parsed.currency]

    @property
    def pools(self) -> list[dict[str, Any]]:
        return [p.raw for p in self.parsed.pools]

    def entry(self, pool_id: str) -> PoolEntry:
        for p in self.parsed.pools:
            if p.id == pool_id:
                return p
        known = ", ".join(p.id for p in self.parsed.pools)
        raise RunError(f"{self.name}: no pool {pool_id!r} in this run (pools: {known})")

    def pool(self, pool_id: str) -> dict[str, Any]:
        return self.entry(pool_id).raw

    def pool_file(self, pool_id: str) -> Path:
        name = self.entry(pool_id).file
        if not os.path.lexists(self.path / name):
            raise RunError(f"{self.name}: pool {pool_id}: pool file {name} is missing")
        try:  # audit's boundary: a bounded regular file of the folder, its footer and column types
            return check_run_parquet(self.path, name, "pool", POOL_COLUMNS)
        except UnusableInput as exc:
            raise self._unreadable(pool_id, exc) from None

    def _unreadable(self, pool_id: str, exc: BaseException) -> RunError:
        text = " ".join(str(exc).split()) or type(exc).__name__
        return RunError(f"{self.name}: cannot read pool {pool_id} "
                        f"({self.entry(pool_id).file}): {text}")

    def collect(self, pool_id: str, query: Callable[[pl.LazyFrame], pl.LazyFrame]) -> pl.DataFrame:
        """`query` applied to a scan of the pool file, collected; any failure is a RunError."""
        path = self.pool_file(pool_id)
        try:
            return query(pl.scan_parquet(literal(path), glob=False)).collect()
        except (pl.exceptions.PolarsError, OSError, ValueError, TypeError) as exc:
            raise self._unreadable(pool_id, exc) from None

    def schema(self, pool_id: str) -> dict[str, pl.DataType]:
        """The pool file's columns and their types (read from its footer alone)."""
        path = self.pool_file(pool_id)
        try:
            return dict(pl.scan_parquet(literal(path), glob=False).collect_schema())
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._unreadable(pool_id, exc) from None

    def require(self, pool_id: str, columns: Iterable[str]) -> None:
        """Every column named is in the pool file, `ticket` and `tier` as text, the rest integers."""
        schema = self.schema(pool_id)
        file = self.entry(pool_id).file
        for name in columns:
            if name not in schema:
                raise RunError(f"{self.name}: pool {pool_id}: column {name!r} is missing from {file}")
            dtype = schema[name]
            ok = dtype == pl.String if name in TEXT_COLUMNS else dtype.is_integer()
            if not ok:
                want = "text" if name in TEXT_COLUMNS else "integers"
                raise RunError(f"{self.name}: pool {pool_id}: column {name!r} of {file} is {dtype}, "
                               f"not {want}")

    def read(self, pool_id: str, columns: list[str] | None = None) -> pl.DataFrame:
        """Some columns (default: all) of a whole pool, in pool order."""
        path = self.pool_file(pool_id)
        try:
            return pl.read_parquet(literal(path), columns=columns, glob=False)
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._unreadable(pool_id, exc) from None

    def virn(self, pool_id: str, barcode: str) -> str | None:
        """The validation number the pool's imaging file gives the ticket of `barcode`, or None; the file
        read only if it is the one the manifest lists, byte for byte (its size, then its SHA-256, as the
        desk vouches files: docs/back-office.md, section 2)."""
        entry = next((f for f in self.manifest.get("deliverables", [])
                      if isinstance(f, dict) and f.get("role") == "imaging" and f.get("pool") == pool_id), {})
        name = entry.get("name")
        if not isinstance(name, str) or not os.path.lexists(self.path / name):
            raise RunError(f"{self.name}: pool {pool_id}: no imaging file to check a validation number "
                           "against")
        sha, size = entry.get("sha256"), entry.get("bytes")
        if not isinstance(sha, str) or type(size) is not int:
            raise RunError(f"{self.name}: pool {pool_id}: the manifest lists its imaging file ({name}) "
                           "without its size and SHA-256; no validation number is checked against it")
        path = self.path / name
        try:
            check_run_parquet(self.path, name, "imaging", IMAGING_COLUMNS)
            held = os.stat(path).st_size
            if held != size:
                raise RunError(f"{path}: {held:,} bytes, not the {size:,} the manifest lists; refusing to "
                               "check a validation number against it")
            data = read_run_bytes(self.path, name, "imaging", size)
            if len(data) != size or hashlib.sha256(data).hexdigest() != sha:
                raise RunError(f"{path}: its SHA-256 is not the one the manifest lists; the file was "
                               "changed, refusing to check a validation number against it")
            found = pl.read_parquet(io.BytesIO(data), columns=["barcode", "virn"]) \
                .filter(pl.col("barcode") == barcode).select("virn")
        except (UnusableInput, pl.exceptions.PolarsError, OSError, ValueError) as exc:
            text = " ".join(str(exc).split()) or type(exc).__name__
            raise RunError(f"{self.name}: cannot read pool {pool_id}'s imaging file ({name}): {text}") \
                from None
        return str(found.item(0, 0)) if found.height == 1 else None

    def rows(self, pool_id: str, positions: list[int]) -> pl.DataFrame:
        """The full rows at the given positions of a pool, in position order."""
        rows = self.collect(pool_id, lambda lf: lf.filter(pl.col("position").is_in(positions))
                            .sort("position"))
        nulls = [c for c in rows.columns if rows[c].null_count()]
        if nulls:
            raise RunError(f"{self.name}: pool {pool_id}: null values in column(s) {', '.join(nulls)} "
                           f"of {self.entry(pool_id).file}")
        return rows


def _need(table: object, key: str, kind: type, where: str) -> object:
    if not isinstance(table, dict) or key not in table:
        raise ManifestError(f"{where}.{key}: missing")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ManifestError(f"{where}.{key}: {value!r} is not of the expected type")
    return value


def _check_shown(doc: dict[str, Any], kind: str) -> None:
    """The fields the PDFs show beyond what `Manifest.parse` checks."""
    game = doc["game"]
    _need(game, "name", str, "game")
    _need(game, "regulation", str, "game")
    if kind == "printed":
        _need(game, "number", int, "game")
    for key in TOTALS:
        _need(doc["totals"], key, int, "totals")
    for key in ("run_id", "created"):
        _need(doc, key, str, "manifest")
    for key in ("tool", "drbg"):
        if key in doc and not isinstance(doc[key], dict):
            raise ManifestError(f"manifest.{key}: {doc[key]!r} is not of the expected type")
    streams = doc.get("drbg", {}).get("streams", [])
    if not isinstance(streams, list) or not all(isinstance(s, str) for s in streams):
        raise ManifestError("drbg.streams: not a list of labels")


def open_run(path: Path | str) -> RunFolder:
    """Read and validate a run folder's manifest; a folder without a valid one is not a run."""
    path = Path(path)
    if not os.path.isdir(path):  # os.path: a name too long to look up is no folder, not a traceback
        raise RunError(f"{path}: no such run folder")
    manifest_path = path / MANIFEST
    if not os.path.lexists(manifest_path):
        raise RunError(f"{path}: no {MANIFEST}; not a poolgen run folder")
    try:  # audit's boundary: a regular file of the folder; size, nesting, numbers
        raw = read_manifest_bytes(run_file(path, MANIFEST, "manifest"))
    except UnusableInput as exc:
        raise RunError(str(exc)) from None
    try:
        json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RunError(f"{manifest_path}: not valid JSON: {exc}") from None
    try:
        parsed = Manifest.parse(raw)
        _check_shown(parsed.doc, parsed.kind)
    except ManifestError as exc:
        raise RunError(f"{manifest_path}: not a valid poolgen manifest: {exc}") from None
    return RunFolder(path, raw, parsed.doc, parsed)


def read_manifest(path: Path) -> tuple[bytes, dict[str, Any]]:
    """A manifest given on its own (`--manifest FILE`): read at audit's boundary and checked for shape as
    a run folder's is, each deliverable a name and, where it has a SHA-256, its size in bytes."""
    try:
        raw = read_manifest_bytes(Path(path))
    except UnusableInput as exc:
        raise RunError(str(exc)) from None
    try:
        doc = Manifest.parse(raw).doc
    except ManifestError as exc:
        raise RunError(f"{path}: not a valid poolgen manifest: {exc}") from None
    files = doc.get("deliverables", [])
    for i, f in enumerate(files if isinstance(files, list) else [None]):
        if not isinstance(f, dict) or not isinstance(f.get("name"), str) or "sha256" in f and (
                not isinstance(f["sha256"], str) or type(f.get("bytes")) is not int):
            raise RunError(f"{path}: not a valid poolgen manifest: deliverables[{i}]: not an entry of a "
                           "name and, with a sha256, its bytes")
    return raw, doc


def spec_for(run: RunFolder, spec_path: Path | None, *, must_match: bool) -> Game:
    """The run's game: the spec `spec_path` if given, else specs/<the manifest's spec file name>.

    With `must_match`, a spec whose SHA-256 differs from the manifest's is refused: its symbols
    might not be the ones the run's codes stand for.
    """
    wanted = run.manifest["spec"]
    if spec_path is None:
        name = wanted.get("file")
        if not name or not isinstance(name, str):
            raise RunError(f"{run.name}: the manifest names no spec file; give it with --spec")
        spec_path = default_spec_dir() / Path(name).name
        if not spec_path.is_file():
            raise RunError(f"{run.name}: spec {name} not found in {default_spec_dir()}; "
                           f"give it with --spec")
    game = load_spec(spec_path)
    if game.id != run.parsed.rules:
        raise RunError(f"{spec_path}: a {game.id} spec, but the run is a "
                       f"{run.parsed.rules} run")
    if must_match and game.sha256 != wanted.get("sha256"):
        raise RunError(f"{spec_path}: SHA-256 differs from that of the spec the run was made from "
                       f"({wanted.get('file')}); give the original with --spec")
    return game
