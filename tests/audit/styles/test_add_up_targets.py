"""audit's add_up engine with several targets (docs/styles/add_up.md sections 3 and 5: `target` a
list, `reach` "exactly"): a game adding up to any of them wins, any other total does not; an entry
whose list it cannot read is refused."""

from __future__ import annotations

import polars as pl
import pytest

from audit.styles import add_up
from audit.styles.interface import Reasons

AREA = {"id": "roll", "style": "add_up", "games": 3, "spots": 2, "numbers": ["1", "2", "3", "4", "5", "6"],
        "target": [7, 11], "reach": "exactly", "prizes": [{"code": "2", "cents": 200}]}


def _table(dice: list[int]) -> pl.DataFrame:
    row = {f"roll_spot_{j}": [d - 1] for j, d in enumerate(dice)} | {f"roll_prize_{g}": [0] for g in range(3)}
    return pl.DataFrame(row).cast(pl.UInt8)


def test_a_game_adding_up_to_either_target_wins():
    reasons = Reasons()
    slots = add_up.evaluate(_table([3, 4, 5, 6, 4, 4]), AREA, reasons)  # 7, 11, 8
    assert [bool(s.won[0]) for s in slots] == [True, True, False]
    assert reasons.illegal() == []


@pytest.mark.parametrize("change", [{"target": [7, 11], "reach": "at_least"}, {"target": []},
                                    {"target": [7, 7]}, {"target": [7, "11"]}, {"target": [7, -1]}])
def test_a_list_of_targets_it_cannot_read_is_refused(change):
    with pytest.raises(ValueError) as err:
        add_up.evaluate(_table([3, 4, 5, 6, 4, 4]), AREA | change, Reasons())
    assert str(err.value) == ("manifest play entry: area 'roll': games, spots, numbers, target, reach or "
                              "prizes unreadable")
