"""`poolgen check`: prove a prize structure against the figures its regulation publishes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from poolgen.check.figures import GameCheck
from poolgen.cli.common import all_specs, reports_errors
from poolgen.money import fmt_cents, round_half_up


@reports_errors
def check(
    specs: Annotated[
        list[Path] | None,
        typer.Argument(help="Spec files to check. Default: every *.toml in ./specs/ (else in the source "
                       "tree's specs/, the shipped games).",
                       show_default=False),
    ] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON document: every game's figures, the problems found, ok.")] = False,
) -> None:
    """Compute every pool's winners, odds, prize cost and payout from a spec's tiers and cross-check
    them against every figure the regulation publishes.

    Exit 0: every figure reconciles. 1: a published figure disagrees (one line each).
    2: a spec cannot be read, is invalid, or holds a tier its play cannot lay out.
    """
    from poolgen.check.game import check_spec  # lazy: start-up time of every command (docs/scaling.md)
    from poolgen.loader import load_spec  # lazy: numpy, as above

    paths = specs or all_specs()
    loaded = [load_spec(p) for p in paths]  # every spec is valid before anything is printed
    results = [check_spec(s) for s in loaded]
    problems = [p for r in results for p in r.problems]
    if as_json:
        doc = {"games": [r.to_json() for r in results], "problems": problems, "ok": not problems}
        typer.echo(json.dumps(doc, indent=2))
    else:
        console = Console(width=max(Console().width, 120))
        for r in results:
            _print_game(console, r)
        if problems:
            console.print(f"[bold red]{len(problems)} published figure(s) disagree[/]")
        else:  # a game stating no published figure had nothing compared: never "reconciles"
            stated = sum(r.stated for r in results)
            none = len(results) - stated
            if stated == 0:
                console.print(f"No published figure in {none} game(s): nothing reconciled, computed "
                              "figures only.")
            elif none:
                console.print(f"[bold green]All figures of {stated} game(s) reconcile[/]; {none} game(s) "
                              "state no published figure (computed figures only).")
            else:
                console.print(f"[bold green]All figures of {stated} game(s) reconcile.[/]")
    raise typer.Exit(1 if problems else 0)


def _print_game(console: Console, r: GameCheck) -> None:
    s = r.game
    title = f"{s.name}" + (f" (game {s.number})" if s.number else "") + f" - {s.regulation}"
    table = Table(title=title, title_justify="left")
    for col in ("pool", "price", "tickets", "winners", "losers", "odds 1 in", "prize cost",
                "payout %", "top prize"):  # pool ids as `generate --pool` takes them; printed: the order
        table.add_column(col, justify="right" if col != "pool" else "left")
    for p in r.pools + ([r.order] if r.order else []):
        table.add_row(p.id, fmt_cents(p.price_cents, s.currency), f"{p.tickets:,}", f"{p.winners:,}",
                      f"{p.losers:,}", str(round_half_up(p.odds, 2)) if p.odds else "-",
                      fmt_cents(p.prize_cost_cents, s.currency), str(round_half_up(p.payout, 2)),
                      fmt_cents(p.top_prize_cents, s.currency))
    console.print(table)
    for note in r.notes:
        console.print(f"  [yellow]note[/] {escape(note)}", soft_wrap=True)
    for problem in r.problems:
        console.print(f"  [red]problem[/] {escape(problem)}", soft_wrap=True)
    if not r.problems:
        console.print(f"  [green]ok[/] {len(s.tiers)} prize tiers and the losing tier, "
                      + ("every published figure reconciles" if r.stated else "no published figure to "
                         "reconcile"))
    console.print()
