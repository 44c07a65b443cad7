"""A format-1 spec's [game] table: an eInstant of a generic style names its `id` (which then stands
as its rules: DRBG streams, default run ids, the manifest's game.rules) and its `style`
(poolgen/styles/<style>.py, docs/styles/play.md "eInstant styles"). A spec naming `rules` is refused."""

from __future__ import annotations

import re

from poolgen.spec_reader import Reader

__all__ = ["rules_or_style"]

_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")


def rules_or_style(r: Reader, game: dict, kind: str) -> tuple[str, str]:
    """(game.rules, game.style) of a format-1 spec: an eInstant names its game (`id`, which then
    stands as its rules: streams, run ids) and its generic style. A spec that names `rules` instead
    is refused: no game has rules of its own (every game is a spec of play styles, docs/new-game.md)."""
    if "style" not in game:
        if "id" in game:
            raise r.fail("game.id", "goes with game.style (a spec without a style names its rules)")
        rules = r.get(game, "rules", "game", str)
        raise r.fail("game.rules", f"{rules!r}: no game has rules of its own; write a printed "
                                   "game as a format = 2 spec of play styles, an eInstant with "
                                   "game.id and game.style (docs/new-game.md)")
    from poolgen.styles import einstant_module, einstant_styles

    if "rules" in game:
        raise r.fail("game.rules", "a spec with game.style names its game by game.id, not rules")
    style = r.get(game, "style", "game", str)
    game_id = r.get(game, "id", "game", str)
    if not _GAME_ID.fullmatch(game_id):
        raise r.fail("game.id", f"{game_id!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    if kind != "einstant":
        raise r.fail("game.style", "names an eInstant style; a printed game of styles is format = 2")
    try:
        einstant_module(style)
    except LookupError:
        raise r.fail("game.style", f"unknown eInstant style {style!r} "
                                   f"(known: {', '.join(einstant_styles())})") from None
    return game_id, style
