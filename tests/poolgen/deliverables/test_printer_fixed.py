"""Fixed-width records for the press (`poolgen imaging export --format fixed`, poolgen/deliverables/
fixed.py, docs/validation.md section 4): parsed back by the layout file exactly as the document says,
they are the CSV export field for field; every record has the layout's length; the layout comes from
the game, so the runs of two pools of one order (of two seeds) get the same layout file; what is not
printable ASCII is refused in one line."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poolgen.deliverables.fixed import Field, fixed_layout, layout_csv, records
from poolgen.errors import RunError
from poolgen.loader import load_spec
from tests.support import ROOT, SEED_A, SEED_B, small_lucky_pairs
from tests.support.cli import invoke, one_line
from tests.support.fixed_width import parse

FIXED = ["sequence", "barcode", "virn", "book", "ticket_no"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Lucky Pairs cut to two pools of 2,400 tickets (books of 200): a run of pool p1 with one seed
    and a run of pool p2 with another, unsigned."""
    root = tmp_path_factory.mktemp("fixed")
    spec = small_lucky_pairs(root)
    out = {"spec": spec}
    for pool, seed in (("p1", SEED_A), ("p2", SEED_B)):
        (root / f"{pool}.seed").write_text(seed.hex() + "\n")
        (root / f"{pool}.seed").chmod(0o600)
        made = invoke("generate", spec, "--out", root / "runs", "--seed-file", root / f"{pool}.seed",
                      "--run-id", pool, "--pool", pool, "--workers", "1", "--unsigned")
        assert made.exit_code == 0, made.output
        out[pool] = root / "runs" / pool
    return out


def test_the_records_parse_back_to_the_csv_and_two_pools_share_one_layout(runs, tmp_path):
    layouts = []
    for pool in ("p1", "p2"):
        csv, fixed = tmp_path / f"{pool}.csv", tmp_path / f"{pool}.txt"
        assert invoke("imaging", "export", runs[pool], "--out", csv).exit_code == 0
        result = invoke("imaging", "export", runs[pool], "--out", fixed, "--format", "fixed",
                        "--spec", runs["spec"])
        assert result.exit_code == 0, result.output
        assert result.stdout == (f"imaging {fixed}: 2,400 tickets in print sequence, fixed-width records "
                                 f"of 1,134 characters and LF, layout {tmp_path / f'{pool}.layout.csv'} "
                                 f"(mode 0600: outcomes, the printer only)\n")
        layout = (tmp_path / f"{pool}.layout.csv").read_bytes()
        for f in (fixed, tmp_path / f"{pool}.layout.csv"):
            assert f.stat().st_mode & 0o777 == 0o600
        data = fixed.read_bytes()
        assert len(data) == 2400 * 1135  # every record 1,134 characters and LF
        back = parse(data, layout)
        assert back.equals(pl.read_csv(csv, infer_schema=False))  # field for field
        layouts.append(layout)
    assert layouts[0] == layouts[1]  # from the game, not the tickets: one layout for the order
    assert back["sequence"][0] == "2401"  # p2 follows p1's 12 books of 200 in the order's print run
    lines = layouts[0].decode().splitlines()
    assert lines[:10] == ["field,start,end,width,type", "sequence,1,4,4,N", "barcode,5,19,15,D",
                          "virn,20,31,12,D", "book,32,33,2,N", "ticket_no,34,36,3,N",
                          "games_spot_0,37,45,9,A", "games_spot_0_text,46,66,21,A",
                          "games_spot_0_caption,67,73,7,A", "games_spot_0_art,74,92,19,A"]
    assert lines[-1] == "games_prize_5_caption,1129,1134,6,A" and len(lines) == 1 + 5 + 18 * 4 + 6 * 3


def test_exact_bytes_of_records(runs, tmp_path):
    out = tmp_path / "p2.txt"
    assert invoke("imaging", "export", runs["p2"], "--out", out, "--format", "fixed",
                  "--spec", runs["spec"]).exit_code == 0
    csv = tmp_path / "p2.csv"
    assert invoke("imaging", "export", runs["p2"], "--out", csv).exit_code == 0
    rows = pl.read_csv(csv, infer_schema=False)
    records_ = out.read_bytes().split(b"\n")
    assert records_[-1] == b"" and len(records_) == 2401
    for k in (0, 199, 200, 2399):  # first and last of a book, first of the next, the last ticket
        row = rows.row(k, named=True)
        want = (f"{int(row['sequence']):04d}{row['barcode']}{row['virn']}{int(row['book']):02d}"
                f"{int(row['ticket_no']):03d}")
        assert records_[k][:36] == want.encode()
        assert records_[k][36:45] == f"{row['games_spot_0']:<9}".encode()
        assert records_[k][73:92] == f"{row['games_spot_0_art']:<19}".encode()
        assert records_[k][1128:] == f"{row['games_prize_5_caption']:<6}".encode()
    # known answer (SEED_B's pool p2; the loop above derives the same bytes from the CSV by the doc's rules):
    # sequence 2401, barcode 902000001800035 (book 18, ticket 000), VIRN 039031185474, book 18, ticket 0
    assert records_[0][:92] == (b"240190200000180003503903118547418000"
                                b"BELL     Symbol of a bell     BELL   LP902_bell.eps     ")
    assert records_[2399][:4] == b"4800" and records_[2399][33:36] == b"199"


def test_bad_options_are_one_line_errors(runs, tmp_path):
    run, spec = runs["p1"], runs["spec"]
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "x", "--format", "xml"), "poolgen",
             "Invalid value for '--format'")
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "x.csv", "--spec", spec), "poolgen",
             "--spec: only --format fixed reads a spec; the CSV needs none")
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "x.txt", "--format", "fixed"), "poolgen",
             "spec lucky_pairs.toml not found in")
    edited = tmp_path / "lucky_pairs.toml"
    edited.write_text(spec.read_text() + "\n# edited\n")
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "x.txt", "--format", "fixed", "--spec",
                    edited), "poolgen", "SHA-256 differs from that of the spec the run was made from")
    (tmp_path / "taken.layout.csv").write_text("mine\n")
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "taken.txt", "--format", "fixed",
                    "--spec", spec), "poolgen",
             f"{tmp_path / 'taken.layout.csv'}: already exists; not overwriting it (--force replaces it)")
    assert not (tmp_path / "taken.txt").exists() and (tmp_path / "taken.layout.csv").read_text() == "mine\n"
    (tmp_path / "folder.layout.csv").mkdir()  # even with --force: nothing is written
    one_line(invoke("imaging", "export", run, "--out", tmp_path / "folder.txt", "--format", "fixed",
                    "--spec", spec, "--force"), "poolgen",
             f"{tmp_path / 'folder.layout.csv'}: is a folder; give a file's name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.layout.csv", "lucky_pairs.toml",
                                                          "taken.layout.csv"]


SPOT = ["maze_cell_0", "maze_cell_0_text", "maze_cell_0_caption"]


def test_a_symbol_not_printable_ascii_is_refused_for_the_whole_table():
    game = load_spec(ROOT / "specs/examples/arrow_maze.toml")  # its arrows are drawn as ↑ → ↓ ←
    with pytest.raises(RunError, match=re.escape(
            "arrow_maze.toml: maze_cell_0_text: '↑' is not printable ASCII; fixed-width records are ASCII "
            "only (--format csv writes UTF-8)")):
        fixed_layout(game, FIXED + SPOT, {})


def test_a_symbol_ending_in_a_space_is_refused(tmp_path):
    spec = small_lucky_pairs(tmp_path)
    spec.write_text(spec.read_text().replace('caption = "BELL"', 'caption = "BELL "', 1))
    with pytest.raises(RunError, match=re.escape(
            "lucky_pairs.toml: games_spot_3_caption: 'BELL ' ends in a space, which a fixed-width field's "
            "padding would swallow")):
        fixed_layout(load_spec(spec), FIXED + ["games_spot_3", "games_spot_3_text", "games_spot_3_caption"],
                     {})


def test_a_value_that_does_not_fit_its_field_is_refused_not_cut():
    fields = [Field("sequence", 1, 2, "N"), Field("barcode", 3, 3, "D"), Field("c", 6, 4, "A")]
    ok = pl.DataFrame({"sequence": ["7"], "barcode": ["012"], "c": ["AB"]})
    assert records(ok, fields, "t")["record"].to_list() == ["07012AB  "]
    for column, value, why in (("sequence", "123", "sequence '123'"), ("barcode", "12", "barcode '12'"),
                               ("barcode", "1a3", "barcode '1a3'"), ("c", "ABCDE", "c 'ABCDE'"),
                               ("c", "Ä", "c 'Ä'")):
        with pytest.raises(RunError, match=re.escape(f"t: {why} does not fit the layout's field")):
            records(ok.with_columns(pl.lit(value).alias(column)), fields, "t")


@st.composite
def tables(draw):
    """Fields of every type with values that fit them, and their layout."""
    kinds = draw(st.lists(st.sampled_from("NDA"), min_size=1, max_size=6))
    fields, start, columns = [], 1, {}
    rows = draw(st.integers(1, 5))
    for k, kind in enumerate(kinds):
        width = draw(st.integers(1, 8))
        if kind == "A":
            text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=width)
            values = draw(st.lists(text.map(lambda v: v.rstrip(" ")), min_size=rows, max_size=rows))
        else:
            low = 10 ** (width - 1) if kind == "D" else 0
            numbers = draw(st.lists(st.integers(low, 10**width - 1), min_size=rows, max_size=rows))
            values = [f"{n:0{width}d}" if kind == "D" else str(n) for n in numbers]
        fields.append(Field(f"f{k}", start, width, kind))
        columns[f"f{k}"] = values
        start += width
    return fields, pl.DataFrame(columns, schema={f.name: pl.String for f in fields})


@given(tables())
@settings(max_examples=60, deadline=None)
def test_any_fitting_table_parses_back_by_its_layout_file(drawn):
    fields, table = drawn
    data = records(table, fields, "t")["record"].str.join("\n").item() + "\n"
    assert parse(data.encode("ascii"), layout_csv(fields)).equals(table)
