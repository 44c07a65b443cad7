"""A ticket or book typed at the commands that take one, for a game numbered 2029 (docs/validation.md
section 2: ids `GGGG-BBBBBBB-TTT`, 16-digit barcodes; docs/back-office.md): the form of a three-digit
game, cut or padded numbers, spaces, dashes, a check digit off by one, another game's barcode. What
is no ticket id or barcode at all is one line naming it (exit 2) and writes no ledger; what is one but
not this run's is the desk's answer (exit 1, the attempt recorded) or, where nothing is recorded
(`merkle-proof`, `books`), one line. A sweep of 26 such values at validate (one and --batch),
merkle-proof, prove and the four book moves, for this game and a three-digit one, found nothing wrong:
these pin it."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.deliverables.identity import barcode
from tests.support import SEED_A, small_happy_holidays, spec_path


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A signed run of Happy Holidays as game 2029 (one pool of 3,000, both validation keys) and its
    eighth ticket: id, barcode number, validation number."""
    w = tmp_path_factory.mktemp("g2029")
    for args in (["keys", "new", w / "keys"], ["keys", "validation", "new", w / "low.key"],
                 ["keys", "validation", "new", w / "high.key"]):
        assert CliRunner().invoke(app, [str(a) for a in args]).exit_code == 0
    (w / "s.seed").write_text(SEED_A.hex() + "\n")
    (w / "s.seed").chmod(0o600)
    text = spec_path("happy_holidays").read_text().replace("\nnumber = 465\n", "\nnumber = 2029\n")
    made = CliRunner().invoke(app, [str(a) for a in (
        "generate", small_happy_holidays(w, 3000, text), "--pool", "p1", "--out", w / "runs",
        "--run-id", "g4", "--seed-file", w / "s.seed", "--key", w / "keys" / "signing-key.pem",
        "--workers", "1", "--validation-key", w / "low.key", "--high-validation-key", w / "high.key")])
    assert made.exit_code == 0, made.output
    image = pl.read_parquet(w / "runs" / "g4" / "imaging-p1.parquet", columns=["barcode", "virn"])
    code, virn = image.row(7)
    return w, code, virn


def _forms(code: str) -> dict[str, str]:
    """Each hostile form of the ticket of barcode `code` (16 digits: 2029 BBBBBBB TTT CC)."""
    book, no, check = code[4:11], code[11:14], code[14:]
    return {"cut barcode": code[1:], "barcode padded to 17": "0" + code, "16 digits from 0": "0" + code[1:],
            "check digit + 1": code[:-2] + f"{int(check) + 1:02d}", "leading space": " " + code,
            "inner space": f"2029 {code[4:]}", "dashed barcode": f"2029-{book}-{no}-{check}",
            "three-digit id": f"029-{book}-{no}", "id padded to 0029": f"0029-{book}-{no}",
            "another game's barcode": barcode(465, int(book), int(no))}


NOT_ONE = ("not a barcode number (15 digits; 16 for a game numbered 1000..9999) nor a ticket id "
           "GGG-BBBBBBB-TTT (ASCII digits only)")
# the desk's answer (exit 1) or the one line of refusal (exit 2)
VALIDATE = {"cut barcode": "not a barcode number (its check digits fail)",
            "check digit + 1": "not a barcode number (its check digits fail)",
            "three-digit id": "unknown ticket (not in run g4)",
            "another game's barcode": "unknown ticket (not in run g4)"}


@pytest.mark.parametrize("form", list(_forms("2029000000700741")))
def test_a_ticket_typed_at_the_desk_is_refused_in_one_line_or_answered_unknown(world, tmp_path, form):
    w, code, virn = world
    value = _forms(code)[form]
    done = CliRunner().invoke(app, [str(a) for a in (
        "validate", w / "runs" / "g4", value, virn, "--validation-key", w / "low.key",
        "--high-validation-key", w / "high.key", "--ledger", tmp_path / "claims.sqlite", "--index-dir",
        tmp_path / "index", "--public-key", w / "keys" / "signing-key.pub.pem", "--clerk", "c",
        "--desk", "d")])
    assert "Traceback" not in done.output
    if form in VALIDATE:
        assert done.exit_code == 1, done.output
        assert f"{VALIDATE[form]} (claim no. 1, recorded)" in done.stdout
    else:
        assert (done.exit_code, done.stderr) == (2, f"poolgen: error: ticket {value!r}: {NOT_ONE}\n")
        assert not (tmp_path / "claims.sqlite").exists()


@pytest.mark.parametrize("form", list(_forms("2029000000700741")))
def test_a_ticket_typed_at_merkle_proof_is_refused_in_one_line(world, form):
    w, code, virn = world
    value = _forms(code)[form]
    run = w / "runs" / "g4"
    done = CliRunner().invoke(app, ["merkle-proof", str(run), value, virn])
    other = barcode(465, int(code[4:11]), int(code[11:14]))
    if value.isdigit():  # a barcode number, or digits that are none: the desk's words
        said = {"cut barcode": f"{value}: not a barcode number (its check digits fail)",
                "check digit + 1": f"{value}: not a barcode number (its check digits fail)",
                "another game's barcode": f"{run}: no ticket '465-{other[3:10]}-{other[10:13]}' in any pool "
                                          "of the run"}.get(form, f"ticket {value!r}: {NOT_ONE}")
    else:  # a ticket id of any game (an eInstant's too): looked up as it is
        said = f"{run}: no ticket {value!r} in any pool of the run"
    assert (done.exit_code, done.stderr) == (2, f"poolgen: error: {said}\n")


@pytest.mark.parametrize(("book", "said"), [
    ("029-{b}", "book '029-{b}': not a book of run g4 (not in its pack list)"),
    ("0029-{b}", "book '0029-{b}': not a book GGG-BBBBBBB nor a book number (ASCII digits)"),
    ("2029 {b}", "book '2029 {b}': not a book GGG-BBBBBBB nor a book number (ASCII digits)"),
    ("{code}", "book '{code}': not a book GGG-BBBBBBB nor a book number (ASCII digits)"),
])
def test_a_book_typed_at_the_books_ledger_is_refused_in_one_line_writing_nothing(world, tmp_path, book, said):
    w, code, _ = world
    value = book.format(b=code[4:11], code=code)
    done = CliRunner().invoke(app, [str(a) for a in (
        "books", "activate", w / "runs" / "g4", value, "--clerk", "c", "--ledger", tmp_path / "books.sqlite",
        "--public-key", w / "keys" / "signing-key.pub.pem")])
    assert (done.exit_code, done.stderr) == (2, f"poolgen: error: {said.format(b=code[4:11], code=code)}\n")
    assert list(tmp_path.iterdir()) == []
