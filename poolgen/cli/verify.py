"""`poolgen verify`: the auditor's checklist (audit/), which trusts only the public key and the files.

The command is audit's own (`python -m audit verify`), given poolgen's generator so that step 7
can regenerate the pools from the seed. poolgen may call audit; audit never imports poolgen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from audit.cli import verify_command
from poolgen.interrupts import ended, kept_so_far

if TYPE_CHECKING:  # types only: audit.verify's imports cost every command's start-up (docs/scaling.md)
    from audit.verify import Report


def regenerate(spec_path: Path, pool_ids: list[str], seed: bytes, folder: Path,
               book_key: bytes | None = None, without_neighbours: bool = False) -> dict[str, Any]:
    """poolgen's generator (poolgen/run/reproduce.py `regenerate`), loaded only when step 7 runs."""
    from poolgen.run import reproduce  # lazy: polars and numpy, start-up time (docs/scaling.md)

    return reproduce.regenerate(spec_path, pool_ids, seed, folder, book_key, without_neighbours)


def verify_keeping(done: Callable[[Report], None] | None = None) -> Callable[..., None]:
    """audit's command, given poolgen's generator; a signal once it has ended says so
    (poolgen/interrupts.py `ended`); `done` is given audit's report (poolgen demo's report step)."""
    audit_verify = verify_command(regenerate, kept_so_far, prefix="poolgen", done=done)

    @wraps(audit_verify)
    def verify(*args: Any, **kwargs: Any) -> None:
        try:
            audit_verify(*args, **kwargs)
        except typer.Exit as exc:
            ended(exc.exit_code)
            raise

    return verify


verify = verify_keeping()

__all__ = ["verify", "verify_keeping"]
