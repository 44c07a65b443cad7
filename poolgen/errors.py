"""The errors poolgen raises. The CLI catches `PoolgenError` once and prints its one-line message."""


class PoolgenError(Exception):
    """Base of every error poolgen reports to a user. `exit_code` is what the CLI exits with."""

    exit_code = 2


class SpecError(PoolgenError):
    """A spec file cannot be read or is invalid; the message names the file and the field."""


class SeedError(PoolgenError):
    """A seed file is missing, unreadable or of the wrong size."""


class SigningKeyError(PoolgenError):
    """A signing key cannot be read or used."""


class OutputError(PoolgenError):
    """An output folder or file cannot be written."""


class RunError(PoolgenError):
    """A run folder is missing, incomplete or does not hold what was asked for."""
