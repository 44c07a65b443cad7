"""The command line as people expect it (issue 26), for every command of `poolgen` and `audit`, those
added later too (the tree is walked, not listed): -h answers like --help, help shows no typer type
names, and a usage error is one line `PROG: error: ...` and exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer.main

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import ceremony as ceremonies
from tests.support.cli import invoke, one_line

ROOT = Path(__file__).resolve().parents[3]
TYPE_NAMES = re.compile(r"<bool>|<path>|<int|<float|<text>|<str>|list\[|\[x[<>]=|x[<>]=\d|\{[A-Z]")


def command_paths(application) -> list[tuple[str, ...]]:
    """Every visible command's words, groups first."""
    out: list[tuple[str, ...]] = []

    def walk(command, path: tuple[str, ...]) -> None:
        out.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            if not sub.hidden:
                walk(sub, (*path, name))

    walk(typer.main.get_command(application), ())
    return out


POOLGEN = command_paths(app)
AUDIT = command_paths(audit_app)


def test_the_tree_is_walked():
    assert {("proof",), ("merkle-proof",), ("seed", "new"), ("verify",), ("report",)} <= set(POOLGEN)
    assert ("prove",) not in POOLGEN  # the old name still runs, unlisted
    assert {("verify",), ("check-proof",), ("code-hash",)} <= set(AUDIT)


CASES = [(app, p) for p in POOLGEN] + [(audit_app, p) for p in AUDIT]
NAMES = [" ".join(("poolgen", *p)) for p in POOLGEN] + [" ".join(("audit", *p)) for p in AUDIT]


@pytest.mark.parametrize(("application", "path"), CASES, ids=NAMES)
def test_help_shows_no_type_names_and_answers_h(application, path):
    long = invoke(*path, "--help", application=application)
    short = invoke(*path, "-h", application=application)
    assert long.exit_code == 0 and short.exit_code == 0, long.output
    assert long.stdout == short.stdout
    assert not TYPE_NAMES.search(long.stdout), TYPE_NAMES.search(long.stdout)
    assert "-h" in long.stdout


@pytest.mark.parametrize(("application", "path"), CASES, ids=NAMES)
def test_the_usage_line_brackets_and_ellipsizes_each_argument_once(application, path):
    """A metavar written the way typer prints it was printed doubled: `validate RUN [[TICKET]] [[VIRN]]`,
    `imaging check FILE......`."""
    usage = next(line for line in invoke(*path, "--help", application=application).stdout.splitlines()
                 if "Usage:" in line)
    assert "[[" not in usage and "]]" not in usage and "...." not in usage, usage


@pytest.mark.parametrize(("args", "message"), [
    (("proof",), "Missing argument 'RUN'. (see `"),
    (("proof", "somewhere"), "Missing option '--out'."),
    (("report", "somewhere", "--out", "x.pdf", "--colour"), "No such option: --colour"),
    (("proof", "somewhere", "--out", "x.pdf", "--per-tier", "0"), "Invalid value for '--per-tier'"),
    (("frobnicate",), "No such command 'frobnicate'."),
    (("seed", "new"), "Missing argument"),
])
def test_a_usage_error_is_one_line(args, message):
    one_line(invoke(*args), "poolgen", message)


def test_audit_usage_errors_and_poolgen_verify_errors_say_whose(tmp_path):
    one_line(invoke("verify", application=audit_app), "audit", "Missing argument 'RUN'.")
    one_line(invoke("verify", tmp_path / "none", "--public-key", tmp_path / "k.pem"), "poolgen", "")


def test_commands_that_answer_something_answer_in_json(tmp_path):
    made = invoke("keys", "new", tmp_path / "k", "--json")
    assert made.exit_code == 0, made.output
    doc = json.loads(made.stdout)
    assert doc["public_key"] == str(tmp_path / "k" / "signing-key.pub.pem") and doc["encrypted"] is False
    assert len(doc["fingerprint"]) == 19
    key = invoke("keys", "validation", "new", tmp_path / "v.key", "--json")
    assert json.loads(key.stdout)["key_file"] == str(tmp_path / "v.key")
    ceremony = ceremonies.new(tmp_path)
    status = json.loads(ceremonies.ok("ceremony", "status", str(ceremony), "--json").stdout)
    assert status["ceremony"] == "c1" and [p["name"] for p in status["parties"]] == list(ceremonies.PARTIES)
    assert status["seed_commitment"] is None and status["beacon"] == {"chain": "quicknet", "round": 1000}


def test_a_prompt_without_a_terminal_names_yes(tmp_path):
    ceremony = ceremonies.new(tmp_path)
    asked = ceremonies.invoke("ceremony", "commit", str(ceremony), "--party", "vendor", "--key",
                              ceremonies.key(ceremony, "vendor"), "--contribution", str(tmp_path / "a.c"))
    assert asked.exit_code == 2 and asked.stderr == (  # CliRunner's input is no terminal: nothing asked
        "poolgen: error: not confirmed; nothing was changed (standard input is not a terminal, so nothing "
        "is asked; give --yes to confirm)\n")
    assert not (tmp_path / "a.c").exists()


GROUPS = [p for p in POOLGEN if p and hasattr(typer.main.get_command(app).commands[p[0]], "commands")
          and (len(p) == 1 or p == ("keys", "validation"))]


@pytest.mark.parametrize("path", GROUPS, ids=" ".join)
def test_a_groups_help_names_every_command_it_holds(path):
    """`poolgen sales --help` said "sell, void, close, claim, report" and not reconcile, `imaging` not
    sequence, `keys` not recipient: a newcomer reading a group's summary missed a command it holds."""
    group = typer.main.get_command(app)
    for word in path:
        group = group.commands[word]
    held = sorted(name for name, sub in group.commands.items() if not sub.hidden)
    assert held and [n for n in held if not re.search(rf"\b{re.escape(n)}\b", group.help or "")] == []


@pytest.mark.parametrize("path", [p for p in POOLGEN if p != ("help",)], ids=lambda p: " ".join(p) or "-")
def test_help_command_prints_what_dash_dash_help_prints(path):
    """`poolgen help sales sell`, as `git help` and `uv help`: the same bytes as `sales sell --help`."""
    asked, told = invoke("help", *path), invoke(*path, "--help")
    assert (asked.exit_code, asked.stdout, asked.stderr) == (0, told.stdout, "")


@pytest.mark.parametrize("path", AUDIT, ids=lambda p: " ".join(p) or "-")
def test_audit_help_command_prints_what_dash_dash_help_prints(path):
    asked, told = invoke("help", *path, application=audit_app), invoke(*path, "--help", application=audit_app)
    assert (asked.exit_code, asked.stdout, asked.stderr) == (0, told.stdout, "")


def test_help_of_an_unknown_command_is_the_usage_error_of_its_group():
    one_line(invoke("help", "frobnicate"), "poolgen", "No such command 'frobnicate'. (see `poolgen -h`)")
    one_line(invoke("help", "sales", "frob"), "poolgen", "No such command 'frob'. (see `poolgen sales -h`)")
    one_line(invoke("help", "verify", "x"), "poolgen", "No such command 'x'. (see `poolgen verify -h`)")
    one_line(invoke("help", "nothing", application=audit_app), "audit", "No such command 'nothing'.")


def test_the_programs_help_lists_help():
    assert re.search(r"│ help +Show the help of COMMAND", invoke("--help").stdout)
    assert re.search(r"│ help +Show the help of COMMAND", invoke("--help", application=audit_app).stdout)


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_answers_dash_v_on_both_programs(flag):
    import audit
    import poolgen

    mine = invoke(flag)
    assert mine.exit_code == 0 and mine.stdout.startswith(f"poolgen {poolgen.__version__}\ncode SHA-256 ")
    theirs = invoke(flag, application=audit_app)
    assert (theirs.exit_code, theirs.stdout, theirs.stderr) == (0, f"audit {audit.__version__}\n", "")


def test_both_programs_say_the_version_pyproject_gives():
    import tomllib

    import audit
    import poolgen

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert poolgen.__version__ == audit.__version__ == project["version"]



def _examples(application) -> list[tuple[tuple[str, ...], str]]:
    """(command path, example) of every command whose help ends in examples; a line ending in a backslash
    continues on the next."""
    found = []
    for path in command_paths(application):
        command = typer.main.get_command(application)
        for word in path:
            command = command.commands[word]
        block = (command.epilog or "").partition("Examples:\n\n```\n")[2].partition("\n```")[0]
        found += [(path, example) for example in block.replace("\\\n", "\\\x00").split("\n") if example]
    return found


EXAMPLES = [(app, *e) for e in _examples(app)] + [(audit_app, *e) for e in _examples(audit_app)]


def test_the_main_commands_have_examples():
    assert {p for a, p, _ in EXAMPLES if a is app} == {("check",), ("generate",), ("verify",),
                                                       ("merkle-proof",), ("publish",), ("validate",)}
    assert {p for a, p, _ in EXAMPLES if a is audit_app} == {("verify",), ("check-proof",), ("code-hash",)}


@pytest.mark.parametrize(("application", "path", "example"), EXAMPLES,
                         ids=[e[2].split("\\")[0] for e in EXAMPLES])
def test_an_example_is_shown_whole_and_names_only_options_its_command_has(application, path, example):
    """Each line of an example shows unwrapped, and every command of it (`poolgen ...`, `python -m audit
    ...`, either side of a pipe) is one that exists, given only options it has."""
    import shlex

    shown = invoke(*path, "--help", application=application).stdout
    assert [line for line in example.split("\x00") if line not in shown] == []
    commands = 0
    for part in example.replace("\\\x00", " ").split("|"):
        words = shlex.split(part, comments=True)
        if words[:3] == ["python", "-m", "audit"]:
            at, rest = typer.main.get_command(audit_app), words[3:]
        else:
            assert words[0] == "poolgen", part
            at, rest = typer.main.get_command(app), words[1:]
        while rest and rest[0] in getattr(at, "commands", {}):
            at, rest = at.commands[rest[0]], rest[1:]
        assert not hasattr(at, "commands"), part  # a command, not a group
        options = {o for p in at.params for o in getattr(p, "opts", [])}
        assert [w for w in rest if w.startswith("-") and w != "-" and w not in options] == [], part
        commands += 1
    assert commands == example.count("|") + 1


@pytest.mark.parametrize(("application", "prefix", "one"), [
    (app, "poolgen", "1 a verdict of failure"), (audit_app, "audit", "1 a step fails (a proof is invalid)")])
def test_the_programs_help_ends_with_its_exit_statuses(application, prefix, one):
    words = " ".join(invoke("--help", application=application).stdout.split())
    assert "Exit status: 0 " in words and f"; {one}" in words
    assert f"2 a usage error or input that cannot be used (one line {prefix}: error: ...); 130, 143 " \
           "interrupted (SIGINT, SIGTERM); 141 standard output's reader stopped (| head)." in words


# The commands that may exit 1 (a verdict of failure), as tests/boundary/test_command_line_sweep.py's
# VERDICTS, and the others whose exit 1 is a refusal or a problem found.
EXIT_ONE = [(app, p) for p in [
    ("check",), ("verify",), ("validate",), ("demo",), ("report",), ("imaging", "check"),
    ("claims", "reconcile"), ("sales", "sell"), ("sales", "void"), ("sales", "close"), ("sales", "claim"),
    ("sales", "reconcile"), ("books", "status")]] + [(audit_app, ("verify",)), (audit_app, ("check-proof",))]


@pytest.mark.parametrize(("application", "path"), EXIT_ONE,
                         ids=[("audit " if a is audit_app else "") + " ".join(p) for a, p in EXIT_ONE])
def test_a_command_that_may_exit_1_says_when(application, path):
    """The program's help says exit 1 is a verdict of failure and that each command's help says which."""
    words = " ".join(invoke(*path, "--help", application=application).stdout.replace("│", " ").split())
    assert re.search(r"[Ee]xit (0[^.]*\.\s*)?1\b|[Ee]xit[^.]*?\b1\b", words), words[:400]


def _documented() -> dict[str, bool]:
    """docs/command-line.md's `--json` table: each command it names, and whether it says it has --json."""
    text = (ROOT / "docs" / "command-line.md").read_text().split("## `--json`", 1)[1]
    out: dict[str, bool] = {}
    for row in (line for line in text.splitlines() if line.startswith("| `")):
        cell, said = row.split("|")[1], row.split("|")[2]
        names = re.findall(r"`([^`]+)`", cell)
        first = names[0].split()
        for name in names:
            words = name.split()
            if words[0] not in ("poolgen", "audit"):
                words = [first[0], *(words if len(words) > 1 else [*first[1:-1], *words])]
            out[" ".join(words)] = "no `--json`" not in said
    return out


def test_docs_command_line_md_names_every_command_and_whether_it_has_json():
    walked = {}
    for application, program, paths in ((app, "poolgen", POOLGEN), (audit_app, "audit", AUDIT)):
        for path in paths:
            command = typer.main.get_command(application)
            for word in path:
                command = command.commands[word]
            if not hasattr(command, "commands"):  # a command, not a group
                walked[" ".join((program, *path))] = any("--json" in getattr(p, "opts", [])
                                                        for p in command.params)
    assert _documented() == walked
