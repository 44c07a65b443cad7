"""Every game's proof read back as a reader sees it: for every spec in specs/ and specs/examples/ (cut
to one small pool: tests.support.pdf.one_pool), `poolgen proof` draws one specimen of every tier (the
losing tier's and every winning tier's), and each page of the PDF is read back with pdfium's glyph boxes:
no character drawn over another, none past the page's edges, every symbol, caption and prize a ticket's
play areas show (by the style's own face) printed on its page, and a crossword's doubler named by the
factor it pays. A held-out game found the three: three puzzles, one a row taller, printed the CALL
LETTERS over the PRIZE LEGEND; a CROWN paying TRIPLE was listed as "DOUBLER x3"; spots too low for a
symbol's words drew them over its caption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from poolgen.game.play import AreaPlay
from poolgen.loader import load_spec
from poolgen.pdf.proofs import INDEX_ROWS
from poolgen.pdf.specimens import specimen_rows
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke, one_line
from tests.support.pdf import glyphs, off_page, one_pool, overlapping_glyphs

SPECS = sorted((ROOT / "specs").glob("*.toml")) + sorted((ROOT / "specs" / "examples").glob("*.toml"))
# examples whose face a proof page has no room for: refused in one line (the last test here)
NO_ROOM = {"mn_lucky_lines_gold"}
DRAWN = [p for p in SPECS if p.stem not in NO_ROOM]


def _proof(spec: Path, folder: Path) -> tuple[Path, Path, str]:
    """(the cut spec, its proof PDF, the pool drawn): the first pool of a run of the cut."""
    cut = one_pool(folder, spec)
    seed = folder / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", cut, "--out", folder, "--seed-file", seed, "--run-id", "run", "--workers", "1",
                  "--unsigned")
    assert made.exit_code == 0, made.output
    pool = json.loads((folder / "run" / "manifest.json").read_bytes())["pools"][0]["id"]
    out = folder / "proof.pdf"
    drawn = invoke("proof", folder / "run", "--spec", cut, "--pool", pool, "--out", out)
    assert drawn.exit_code == 0, drawn.output
    return cut, out, pool


def _shown(game, row) -> list[str]:
    """What a ticket's play areas show (symbol, caption, prize, the prize's caption), by the styles'
    faces (docs/styles/)."""
    return [words for a in game.play.areas for _, cells in a.module.face(a.id, a.params, row)
            for _, *texts in cells for words in texts if words]


def _mark(k: int) -> str:
    """A doubler paying k times, as the PRIZE LEGEND names it (docs/styles/crossword.md section 11)."""
    return {2: "DOUBLER", 3: "TRIPLER"}.get(k, f"{k} TIMES")


@pytest.mark.parametrize("spec", DRAWN, ids=[p.stem for p in DRAWN])
def test_proof_pages_print_every_symbol_and_label_no_text_over_text_none_off_the_page(spec, tmp_path):
    cut, pdf, pool = _proof(spec, tmp_path)
    game = load_spec(cut)
    rows = specimen_rows((tmp_path / "run" / "manifest.json").read_bytes(), game, [pool])
    first = 1 + -(-len(rows) // INDEX_ROWS)  # the cover, the index, then a specimen a page
    data = pdf.read_bytes()
    for page in range(first + len(rows)):
        assert overlapping_glyphs(data, page) == [], (spec.stem, page)
        assert off_page(data, page) == [], (spec.stem, page)
    if not isinstance(game.play, AreaPlay):
        return  # a ticket-wide style's face draws pictures (tests/poolgen/pdf/test_proofs.py)
    marks = [a.params.doubler for a in game.play.areas if getattr(a.params, "doubler", None) is not None]
    for n, (_, row) in enumerate(rows):
        text = "".join(g[1] for g in glyphs(data, first + n))
        missing = [w for w in _shown(game, row) if w.replace(" ", "") not in text]
        assert missing == [], (spec.stem, row["tier"], missing)
        for d in marks:
            for k in set(d.by):
                assert f"{_mark(k)}x{k}".replace(" ", "") in text, (spec.stem, row["tier"], k)
            if 2 not in d.by:
                assert "DOUBLER" not in text, (spec.stem, row["tier"])


def test_a_puzzle_a_row_taller_than_the_others_is_drawn_beside_them_and_nothing_overprints(tmp_path):
    # the held-out BC Deluxe Crossword's puzzle 1 of 9 rows was drawn alone above puzzles 2 and 3 of 8,
    # leaving the spot rows so little room that the CALL LETTERS and the PRIZE LEGEND printed over each
    # other (its spec now draws 8 rows: here puzzle 1 is given back a ninth, a word of its own)
    text = (ROOT / "specs" / "examples" / "bclc_deluxe_crossword.toml").read_text()
    last = '    "####.#####",\n    "###.....##" ],\n  [ "....######",'
    assert text.count(last) == 1
    (tmp_path / "tall").mkdir()
    tall = tmp_path / "tall" / "bclc_deluxe_crossword.toml"
    tall.write_text(text.replace(last, last.replace('" ],\n', '",\n    "...#######" ],\n', 1)))
    cut, pdf, pool = _proof(tall, tmp_path)
    rows = specimen_rows((tmp_path / "run" / "manifest.json").read_bytes(), load_spec(cut), [pool])
    assert len(rows) == 16  # the losing tier and 15 winning ones
    data = pdf.read_bytes()
    for page in range(2, 2 + 16):  # after the cover and the index
        assert overlapping_glyphs(data, page) == [], page
        drawn = glyphs(data, page)
        chars = "".join(g[1] for g in drawn)
        titles = [drawn[chars.index(f"PUZZLE{g}(areaxw")][3] for g in (1, 2, 3)]
        assert titles[0] == titles[1] == titles[2], titles  # one line: the three puzzles side by side


@pytest.mark.parametrize("code", ["CROWN", "GOLDEN_CROWN"])
def test_a_symbol_without_a_drawing_prints_its_code_inside_its_box(code):
    # a code with no drawing is printed as text in a box; at 18 units a long one ran past the box
    import io

    from reportlab.pdfgen.canvas import Canvas

    from poolgen.pdf.symbols import draw_symbol

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200))
    draw_symbol(canvas, code, 50, 50, 40)
    canvas.save()
    drawn = glyphs(buffer.getvalue(), 0)
    assert "".join(g[1] for g in drawn) == code
    assert all(g[2] > 50 and g[4] < 90 and g[3] > 50 and g[5] < 90 for g in drawn), drawn


def test_a_face_a_page_has_no_room_for_is_refused_in_one_line_not_drawn_upside_down_over_itself(tmp_path):
    # the held-out Minnesota Lucky Lines Gold: ten GAMES of three in a line, each its own area with its
    # caller and prize spots, and a MULTIPLIER: 31 sections stacked in one column left rows of spots
    # -8.9 points high, and `proof` wrote (exit 0) pages whose words were drawn mirrored over each other
    spec = ROOT / "specs" / "examples" / "mn_lucky_lines_gold.toml"
    assert spec.stem in NO_ROOM
    cut = one_pool(tmp_path, spec)
    seed = tmp_path / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", cut, "--out", tmp_path, "--seed-file", seed, "--run-id", "run",
                  "--workers", "1", "--unsigned")
    assert made.exit_code == 0, made.output
    out = tmp_path / "proof.pdf"
    result = invoke("proof", tmp_path / "run", "--spec", cut, "--out", out)
    one_line(result, "poolgen", f"{cut}: areas: a proof page has no room for this ticket's face: its 31 "
                                "sections of 11 areas leave rows of spots -8.9 points high (at least 12); "
                                "its proof cannot be drawn")
    assert not out.exists()
