"""Art references from the spec to the press (poolgen/deliverables/imaging.py `art_spots`, printer.py
`with_art`): a run of Lucky Pairs, whose pictures have `art`, carries them in the manifest's `print.art`
(public, signed), and `poolgen imaging export` writes each picture spot's art file beside its code, from
the manifest alone; the prize boxes, whose symbols have none, get no art column."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from poolgen.deliverables.printer import art_maps, export_csv, with_art
from poolgen.errors import RunError
from poolgen.run.publish import unreviewed_fields
from tests.support import SEED_A, small_lucky_pairs
from tests.support.cli import invoke

ART = {"BELL": "LP902_bell.eps", "STAR": "LP902_star.eps", "HEART": "LP902_heart.eps",
       "CLOVER": "LP902_clover.eps", "HORSESHOE": "LP902_horseshoe.eps", "DIAMOND": "LP902_diamond.eps"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Lucky Pairs cut to two pools of 2,400 tickets, signed."""
    root = tmp_path_factory.mktemp("art")
    seed = root / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    made = invoke("generate", small_lucky_pairs(root), "--out", root / "runs", "--seed-file", seed,
                  "--run-id", "lp", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    return root / "runs" / "lp"


def test_the_manifest_carries_the_specs_art_as_public_print_fields(run):
    doc = json.loads((run / "manifest.json").read_text())
    assert doc["print"]["art"] == [{"spots": "games_spot_",
                                    "symbols": [{"code": c, "art": a} for c, a in ART.items()]}]
    assert unreviewed_fields(doc) == []  # `publish` may hand it out


def test_the_export_writes_each_picture_spots_art_beside_it(run, tmp_path):
    out = tmp_path / "imaging.csv"
    result = invoke("imaging", "export", run, "--out", out)
    assert result.exit_code == 0, result.output
    back = pl.read_csv(out, infer_schema=False)
    imaging = pl.concat([pl.read_parquet(run / f"imaging-p{k}.parquet") for k in (1, 2)])
    spots = [f"games_spot_{j}" for j in range(18)]
    prizes = [f"games_prize_{g}" for g in range(6)]
    assert back.columns == (["sequence", "barcode", "virn", "book", "ticket_no"]
                            + [f"{c}{x}" for c in spots for x in ("", "_text", "_caption", "_art")]
                            + [f"{c}{x}" for c in prizes for x in ("", "_text", "_caption")])
    assert back.select(imaging.columns).equals(imaging.select(pl.all().cast(pl.String)))  # as before
    for c in spots:
        assert back[f"{c}_art"].to_list() == [ART[code] for code in back[c].to_list()]
    assert set(back["games_spot_0"].to_list()) == set(ART)  # every picture shown in 4,800 tickets


def test_a_run_without_art_exports_as_before(run, tmp_path):
    doc = json.loads((run / "manifest.json").read_text())
    del doc["print"]["art"]
    out = tmp_path / "plain.csv"
    assert export_csv(run, doc, out, force=False) == 4800
    assert not [c for c in pl.read_csv(out, n_rows=1).columns if c.endswith("_art")]


def test_a_spot_of_pictures_with_art_and_prizes_without_leaves_the_prizes_art_empty():
    # a bonus_reveal spot shows its pictures, then its prizes: here only the pictures have art
    table = pl.DataFrame({"barcode": ["1", "2", "3"], "b_spot_0": ["BELL", "5", "STAR"],
                          "b_spot_0_text": ["Symbol of a bell", "$5.00", "Symbol of a star"],
                          "b_spot_0_caption": ["BELL", "FIVE$", "STAR"], "b_spot_10": ["5", "5", "5"],
                          "b_spot_10_text": ["$5.00"] * 3, "b_spot_10_caption": ["FIVE$"] * 3,
                          "b_prize_0": ["5", "5", "5"], "b_prize_0_text": ["$5.00"] * 3,
                          "b_prize_0_caption": ["FIVE$"] * 3})
    art = art_maps({"print": {"art": [{"spots": "b_spot_",
                                       "symbols": [{"code": "BELL", "art": "bell.eps"},
                                                   {"code": "STAR", "art": "star.eps"}]}]}}, Path("r"))
    out = table.select(with_art(table.columns, art))
    assert out.columns == ["barcode", "b_spot_0", "b_spot_0_text", "b_spot_0_caption", "b_spot_0_art",
                           "b_spot_10", "b_spot_10_text", "b_spot_10_caption", "b_spot_10_art",
                           "b_prize_0", "b_prize_0_text", "b_prize_0_caption"]
    assert out["b_spot_0_art"].to_list() == ["bell.eps", "", "star.eps"]
    assert out["b_spot_10_art"].to_list() == ["", "", ""]


def test_verify_refuses_the_run_against_a_spec_of_other_art(run, tmp_path):
    spec = tmp_path / "lucky_pairs.toml"
    spec.write_text((run.parent.parent / "lucky_pairs.toml").read_text().replace("LP902_star.eps",
                                                                                  "LP902_moon.eps"))
    result = invoke("verify", run, "--public-key", run.parent.parent / "keys" / "signing-key.pub.pem",
                    "--spec", spec)
    assert result.exit_code == 1, result.output
    step5 = next(line for line in result.stdout.splitlines() if line.lstrip().startswith("5 "))
    assert step5.split("FAIL", 1)[1].strip().endswith(
        "print.art games_spot_: STAR art 'LP902_star.eps', spec 'LP902_moon.eps'")


@pytest.mark.parametrize("art", [[{"spots": "b_spot_"}], {"b_spot_": "x"}, [{"spots": "s", "symbols": [1]}]])
def test_a_malformed_print_art_is_a_run_error_naming_the_run(art):
    with pytest.raises(RunError) as said:
        art_maps({"print": {"art": art}}, Path("runs/r"))
    assert str(said.value) == ("runs/r: the manifest's print.art is not a list of spots with their symbols' "
                               "code and art")
