"""The frame of the command lines (audit's, and poolgen's through `commands_named`): usage errors as one
line `PREFIX: error: ...` with exit 2, help tidied as git, gh and uv show it, standard output's reader
gone or its disk full answered as those tools do."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click.exceptions import BadParameter, ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperArgument, TyperGroup, TyperOption

from audit.pipes import (
    StandardOutputError,
    quiet_on_closed_stdout,
    rich_raises_broken_pipes,
    stdout_lost,
    whole_writes,
)

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}


def _words_for_range(p: TyperOption) -> str:
    low, high = getattr(p, "min", None), getattr(p, "max", None)
    if low is not None and high is not None:
        return f" From {low} to {high}."
    return f" At least {low}." if low is not None else f" At most {high}." if high is not None else ""


def _metavar(p: TyperOption) -> str:
    annotation = p.type_descriptor.annotation
    inner = getattr(annotation, "__args__", (annotation,))[0]
    return {int: "N", float: "X", Path: "PATH"}.get(inner, "TEXT")


def _refuse_empty_paths(p: Any) -> None:
    """A file or folder given as "" is refused, naming its option: typer reads it as Path(""), which is
    ".", and `poolgen keys new "$DIR"` with DIR unset wrote the keys into the current folder (a seed, a
    run, a ledger the same). A name of spaces is a name; only the empty one is refused."""
    if "Path" not in str(getattr(p, "type_descriptor", None) and p.type_descriptor.annotation):
        return
    process = p.process_value

    def process_value(ctx: Any, value: Any) -> Any:
        given = value if isinstance(value, list | tuple) else [value]
        if any(isinstance(v, str) and v == "" for v in given):
            raise BadParameter("an empty name is no file or folder", ctx=ctx, param=p)
        return process(ctx, value)

    p.process_value = process_value


def tidy_help(command: Any) -> None:
    """Help as people expect it (git, gh, uv), for every command under `command`, added by anyone (and
    an empty path refused, `_refuse_empty_paths`): a flag shows no `<bool>`, an option its metavar (N,
    PATH, TEXT unless it names its own) and never a type name, a number's range in words, an argument
    NAME (required) or [NAME] in the usage line."""
    if getattr(command, "_tidied", False):
        return
    command._tidied = True
    params = list(command.params)
    ctx = typer.Context(command, help_option_names=HELP_OPTIONS["help_option_names"])
    helper = command.get_help_option(ctx)
    for p in [*params, *([helper] if helper is not None else [])]:
        _refuse_empty_paths(p)
        if isinstance(p, TyperArgument):
            name = p.metavar or p.name.upper()
            p.metavar = name
            usage = (name if p.required else f"[{name}]") + ("..." if p.nargs != 1 else "")
            setattr(p, "_usage_display_name", lambda usage=usage: usage)  # noqa: B010  # typer's {RUN}
            setattr(p, "display_type_rich", lambda ctx: None)  # noqa: B010  # typer's <path>
        elif isinstance(p, TyperOption) or hasattr(p, "is_flag"):
            if getattr(p, "is_flag", False) or getattr(p, "count", False):
                p.metavar = ""
            elif p.metavar is None and isinstance(p, TyperOption):
                p.metavar = _metavar(p)
            words = _words_for_range(p) if isinstance(p, TyperOption) else ""
            if words and words not in (p.help or ""):
                p.help = (p.help or "").rstrip() + words
            setattr(p, "_get_number_range_help_str", lambda: None)  # noqa: B010  # typer's [x>=0]
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


class Commands(TyperGroup):
    """A command line whose usage errors are one line `PREFIX: error: ...` and exit 2 (as the tools
    people know), whose help is tidied (`tidy_help`) and answers -h: every command added to it, by
    whoever, inherits both. `prefix` is the program's name in its messages."""

    prefix = "audit"

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        tidy_help(self)
        rich_raises_broken_pipes()
        whole_writes()
        try:
            code = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        except NoArgsIsHelpError as exc:
            exc.show()
            code = exc.exit_code
        except ClickException as exc:
            command = getattr(getattr(exc, "ctx", None), "command_path", None)
            see = f" (see `{command} -h`)" if command else ""
            typer.echo(f"{self.prefix}: error: {exc.format_message()}{see}", err=True)
            code = exc.exit_code
        except typer.Abort:
            typer.echo(f"{self.prefix}: error: aborted", err=True)
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:  # --help and --version print here
        with self._output():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:  # a command's output, and a sub-command's --help
        with self._output():
            return super().invoke(ctx)

    @contextmanager
    def _output(self) -> Iterator[None]:
        """Standard output's reader gone: a quiet exit 141; standard output a file on a full disk: one
        line, exit 2 (a poolgen command says it itself, with its exit code)."""
        with quiet_on_closed_stdout():
            try:
                yield
            except StandardOutputError as exc:
                typer.echo(f"{self.prefix}: error: {stdout_lost(exc)}", err=True)
                raise typer.Exit(2) from None


def commands_named(prefix: str) -> type[Commands]:
    """The `Commands` class of a program called `prefix` (poolgen's is made here too)."""
    return type(f"{prefix.capitalize()}Commands", (Commands,), {"prefix": prefix})


def examples(*lines: str) -> str:
    """A command's help epilog: command lines as they are typed, one a line (a code block, so that no
    line is joined or wrapped; keep each within 76 characters, the help's width less its margins)."""
    return "Examples:\n\n```\n" + "\n".join(lines) + "\n```"


def help_command(app: typer.Typer, program: str) -> None:
    """`PROGRAM help [COMMAND]...`, as `git help` and `uv help`: the help `PROGRAM COMMAND... --help`
    prints, word for word, and exit 0; an unknown command is the usage error `--help` would give."""

    def help_cmd(ctx: typer.Context, command: Annotated[list[str] | None, typer.Argument(
            metavar="COMMAND", help="The command (and sub-command) to explain; none: the program.")] = None,
    ) -> None:
        at = ctx.find_root()
        for word in command or []:
            sub = at.command.get_command(at, word) if hasattr(at.command, "get_command") else None
            if sub is None:
                raise UsageError(f"No such command '{word}'.", ctx=at)
            at = sub.context_class(sub, info_name=word, parent=at, **sub.context_settings)
        typer.echo(at.get_help(), color=at.color)

    help_cmd.__doc__ = (f"Show the help of COMMAND, as `{program} COMMAND --help` does (`{program} help "
                        "verify`); with none, the program's.")
    app.command("help")(help_cmd)
