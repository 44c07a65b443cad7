"""The back office's one error: input it cannot use (exit 2), one line naming the file or argument."""

from __future__ import annotations

from poolgen.errors import PoolgenError


class BackOfficeError(PoolgenError):
    """A run, validation file, index, ledger or argument the back office refuses."""


def shown(text: str, limit: int = 40) -> str:
    """An argument as an error line may show it: ASCII-escaped (a newline cannot start a second line,
    a look-alike digit is visible as \\uXXXX) and cut to `limit` characters."""
    out = ascii(text[:limit])
    return out + ("..." if len(text) > limit else "")
