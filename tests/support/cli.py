"""Running the `poolgen` command in-process (typer's CliRunner), and what a refusal looks like."""

from __future__ import annotations

from typer.testing import CliRunner

from poolgen.cli.main import app


def invoke(*args: object, application=app):
    """`poolgen ARGS...` (each argument as text), run in this process; `application` another typer app
    (audit's, say)."""
    return CliRunner().invoke(application, [str(a) for a in args])


def one_line(result, prefix: str, message: str) -> None:
    """Exit 2 and one line `PREFIX: error: ...` holding `message`, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prefix}: error: "), lines
    assert message in lines[0], (message, lines[0])
    assert "Traceback" not in result.output

# what `validate` says on stderr after a prize it answered without --ledger (poolgen/cli/validate.py)
UNRECORDED = "nothing paid or recorded (no --ledger)\n"
