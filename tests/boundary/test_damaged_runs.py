"""Damaged runs and bad input never end in a traceback: `poolgen prove`, `proof` and `report` print one
line `poolgen: error: ...` and exit 2; the auditor's `verify --spec` exits 2 on a spec it cannot use
(one line `audit: error: ...`); `check-proof` refuses a proof whose fields have the wrong types as
unusable input (exit 2, one line naming the file) and says `INVALID proof: <reason>` (exit 1) of a
well-formed proof that does not lead to the signed root.

One signed Happy Holidays run (pool p1) is generated once for the module; every case damages a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import SEED_A, spec_path
from tests.support.cli import invoke
from tests.support.virns import virn_of

POOL = "pool-p1.parquet"
TICKET = "465-0002054-034"  # position 1,234: book slot 4, printed as book 2054 (SEED_A)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("damaged")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)  # a seed file others may read is refused
    made = invoke("keys", "new", root / "keys")
    assert made.exit_code == 0, made.output
    key = root / "keys" / "signing-key.pem"
    result = invoke("generate", spec_path("happy_holidays"), "--out", root / "runs", "--seed-file",
                    root / "run.seed", "--pool", "p1", "--run-id", "r", "--workers", "1", "--key", key)
    assert result.exit_code == 0, result.output
    proof = invoke("prove", root / "runs" / "r", TICKET, virn_of(root / "runs" / "r", TICKET), "--json")
    assert proof.exit_code == 0, proof.output
    return {"run": root / "runs" / "r", "public": root / "keys" / "signing-key.pub.pem",
            "proof": json.loads(proof.stdout)}


@pytest.fixture
def run(base, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(base["run"], copy)
    return copy


def one_line_error(result, message: str, *, prefix: bool = False) -> None:
    """Exit 2 and exactly one line on stderr: `poolgen: error: <message>` (or starting with it)."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    line = f"poolgen: error: {message}"
    if prefix:
        assert result.stderr.startswith(line) and result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.endswith("\n") and "Traceback" not in result.stderr
    else:
        assert result.stderr == line + "\n"


def edit_manifest(run: Path, change) -> Path:
    path = run / "manifest.json"
    doc = json.loads(path.read_bytes())
    change(doc)
    path.write_text(json.dumps(doc))
    return path


def rewrite_pool(run: Path, change) -> None:
    table = pl.read_parquet(run / POOL)
    change(table).write_parquet(run / POOL)


def truncate_pool(run: Path) -> None:
    data = (run / POOL).read_bytes()
    (run / POOL).write_bytes(data[: len(data) // 2])


def commands(run: Path, out: Path) -> dict[str, tuple]:
    return {"prove": ("prove", run, TICKET, virn_of(run, TICKET)),
            "proof": ("proof", run, "--real", "--out", out),
            "proof --tickets": ("proof", run, "--tickets", TICKET, "--out", out),
            "report": ("report", run, "--out", out)}


# ---- finding 5: the manifest is parsed and validated before anything is read -----------------------

def _pop_file(doc: dict) -> None:
    del doc["pools"][0]["file"]


def _pop_totals_winners(doc: dict) -> None:
    del doc["totals"]["winners"]


def _merkle_string(doc: dict) -> None:
    doc["pools"][0]["merkle"] = "119c"


def _pop_game_number(doc: dict) -> None:
    del doc["game"]["number"]


def _count_text(doc: dict) -> None:
    doc["pools"][0]["tiers"][0]["count"] = "many"


def _tool_list(doc: dict) -> None:
    doc["tool"] = ["poolgen"]


MANIFEST_DAMAGE = [
    (_pop_file, "pools[0].file: missing"),
    (_pop_totals_winners, "totals.winners: missing"),
    (_merkle_string, "pools[0].merkle: '119c' is not of the expected type"),
    (_pop_game_number, "game.number: missing"),
    (_count_text, "pools[0].tiers[0].count: 'many' is not of the expected type"),
    (_tool_list, "manifest.tool: ['poolgen'] is not of the expected type"),
]


@pytest.mark.parametrize("command", ["prove", "proof", "proof --tickets", "report"])
@pytest.mark.parametrize(("damage", "why"), MANIFEST_DAMAGE, ids=[d.__name__ for d, _ in MANIFEST_DAMAGE])
def test_a_damaged_manifest_is_one_line(run, tmp_path, command, damage, why):
    path = edit_manifest(run, damage)
    out = tmp_path / "x.pdf"
    one_line_error(invoke(*commands(run, out)[command]), f"{path}: not a valid poolgen manifest: {why}")
    assert not out.exists()


@pytest.mark.parametrize("command", ["prove", "proof", "report"])
def test_a_manifest_that_is_not_json(run, tmp_path, command):
    (run / "manifest.json").write_text("{not json")
    one_line_error(invoke(*commands(run, tmp_path / "x.pdf")[command]),
                   f"{run / 'manifest.json'}: not valid JSON: Expecting property name enclosed in double "
                   f"quotes: line 1 column 2 (char 1)")


# ---- finding 5: every read of a pool file ---------------------------------------------------------

@pytest.mark.parametrize("command", ["prove", "proof", "proof --tickets"])
def test_a_truncated_pool_file(run, tmp_path, command):
    truncate_pool(run)
    one_line_error(invoke(*commands(run, tmp_path / "x.pdf")[command]),
                   f"{run}: cannot read pool p1 ({POOL}): ", prefix=True)


def test_report_of_a_truncated_pool_file_says_so_in_the_pdf(run, tmp_path):
    truncate_pool(run)
    out = tmp_path / "r.pdf"
    result = invoke("report", run, "--out", out)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == f"report {out}: 1 pool(s), verification not run, public edition (mode 0600)\n"
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    assert f"The pool file cannot be read ({run}: cannot read pool p1 ({POOL}): " in text


@pytest.mark.parametrize("command", ["proof", "proof --tickets"])
def test_a_missing_layout_column(run, tmp_path, command):
    rewrite_pool(run, lambda t: t.drop("play_spot_3"))
    one_line_error(invoke(*commands(run, tmp_path / "x.pdf")[command]),
                   f"{run}: pool p1: column 'play_spot_3' is missing from {POOL}")


def test_a_layout_column_of_text(run, tmp_path):
    rewrite_pool(run, lambda t: t.with_columns(pl.col("play_spot_3").cast(pl.String)))
    one_line_error(invoke("proof", run, "--tickets", TICKET, "--out", tmp_path / "x.pdf"),
                   f"{run}: pool p1: column 'play_spot_3' of {POOL} is String, not integers")


def test_a_missing_ticket_column(run, tmp_path):
    rewrite_pool(run, lambda t: t.drop("ticket"))
    for command in ("prove", "proof --tickets"):
        one_line_error(invoke(*commands(run, tmp_path / "x.pdf")[command]),
                       f"{run}: pool p1: column 'ticket' is missing from {POOL}")


def test_a_missing_pool_file(run, tmp_path):
    (run / POOL).unlink()
    for command in ("prove", "proof", "proof --tickets"):
        one_line_error(invoke(*commands(run, tmp_path / "x.pdf")[command]),
                       f"{run}: pool p1: pool file {POOL} is missing")


def test_prove_a_pool_whose_root_is_not_the_manifests(run):
    rewrite_pool(run, lambda t: t.with_columns(
        pl.when(pl.col("position") == 0).then(pl.col("prize_cents") + 1).otherwise(pl.col("prize_cents"))
        .alias("prize_cents")))
    one_line_error(invoke("prove", run, TICKET, virn_of(run, TICKET)),
                   f"{run / POOL}: its Merkle root is not the manifest's; the run folder is damaged")


def test_the_undamaged_run_still_proves(base, tmp_path):
    result = invoke("prove", base["run"], TICKET, virn_of(base["run"], TICKET))
    assert result.exit_code == 0 and result.stdout.startswith(
        f"ticket {TICKET}: pool p1, position 1,234 of 300,000, run r")
    out = tmp_path / "p.pdf"
    assert invoke("proof", base["run"], "--tickets", TICKET, "--out", out).exit_code == 0


# ---- finding 6: the auditor's spec reader --------------------------------------------------------

def _audit_error(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    assert result.stderr == f"audit: error: {message}\n"


SPEC_DAMAGE = [  # the loader's words: audit reads every field's kind first (audit/read/specs/shapes.py)
    ("hand_to_hand_tactics", 'multiplier = "5000"\n', 'multiplier = "abc"\n',
     "tiers[0].multiplier: 'abc' is not a number"),
    ("hand_to_hand_tactics", 'multiplier = "5000"\n', 'multiplier = "Infinity"\n',
     "tiers[0].multiplier: 'Infinity' is not a non-negative number"),
    ("hand_to_hand_tactics", 'multiplier = "5000"\n', 'multiplier = "NaN"\n',
     "tiers[0].multiplier: 'NaN' is not a non-negative number"),
    ("hand_to_hand_tactics", 'multiplier = "5000"\n', "multiplier = true\n",
     "tiers[0].multiplier: must be a string, not True"),
    ("happy_holidays", 'price = "1.00"', 'price = "Infinity"',
     "printed.price: 'Infinity' is not a finite amount"),
    ("happy_holidays", 'prize = "$1"\n', 'prize = "-NaN"\n', "tiers[1].prize: '-NaN' is not a finite amount"),
    ("happy_holidays", 'prize = "$1"\n', 'prize = "1e999999999"\n',
     "tiers[1].prize: '1e999999999' is not an amount"),
    ("happy_holidays", "pool_tickets = 300000", "pool_tickets = 0",
     "printed.pool_tickets: a pool holds at least one ticket or share"),
]


@pytest.mark.parametrize(("rules", "old", "new", "why"), SPEC_DAMAGE,
                         ids=[f"{r}:{n.strip()}" for r, _, n, _ in SPEC_DAMAGE])
def test_audit_verify_with_an_unusable_spec(base, tmp_path, rules, old, new, why):
    text = spec_path(rules).read_text()
    assert text.count(old) >= 1
    bad = tmp_path / f"{rules}.toml"
    bad.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(audit_app, ["verify", str(base["run"]), "--public-key", str(base["public"]),
                                            "--spec", str(bad)])
    _audit_error(result, f"{bad}: {why}")
    same = CliRunner().invoke(app, ["verify", str(base["run"]), "--public-key", str(base["public"]),
                                    "--spec", str(bad)])
    assert (same.exit_code, same.stderr) == (2, result.stderr.replace("audit: error:", "poolgen: error:", 1))


# ---- finding 6: check-proof validates every field's type -----------------------------------------
# A proof whose fields have the wrong types is not a proof: unusable input (exit 2, one line naming the
# file); a well-formed proof that does not show its ticket in the signed pool is INVALID (exit 1).

def _set(key: str, value):
    return lambda p: p.__setitem__(key, value)


MALFORMED_PROOFS = [
    ("merkle a string", _set("merkle", "119c"), "the proof's 'merkle' is not an object: '119c'"),
    ("pool a list", _set("pool", ["p1"]), "the proof's 'pool' is not a pool id (text): ['p1']"),
    ("pool missing", lambda p: p.pop("pool"), "the proof's 'pool' is missing"),
    ("position text", _set("position", "1234"), "the proof's 'position' is not an integer: '1234'"),
    ("position a bool", _set("position", True), "the proof's 'position' is not an integer: True"),
    ("ticket a number", _set("ticket", 465), "the proof's 'ticket' is not a ticket id (text): 465"),
    ("row a list", _set("row", [1, 2]), "the proof's 'row' is not an object of columns: [1, 2]"),
    ("path an object", _set("path", {"left": []}),
     "the proof's 'path' is not a list of steps: {'left': []}"),
    ("path step a string", lambda p: p["path"].__setitem__(0, "left"),
     "the proof's path step 0: 'left' is not an object"),
    ("path step of v1", lambda p: p["path"].__setitem__(2, {"side": "left", "hash": "00"}),
     "the proof's path step 2: the keys are ['hash', 'side'], not exactly 'left' and 'right'"),
    ("path left a string", lambda p: p["path"][1].__setitem__("left", "00"),
     "the proof's path step 1: 'left' is not a list of hashes: '00'"),
    ("path hash a number", lambda p: p["path"][1]["left"].__setitem__(0, 7),
     "the proof's path step 1: left[0] is not hexadecimal text: 7"),
    ("path hash upper case", lambda p: p["path"][0]["left"].__setitem__(1, p["path"][0]["left"][1].upper()),
     "the proof's path step 0: left[1] is not a hash in 64 lower-case hex digits: "
     "'D6D1D2D6FC5F1DDDABC7405AAAF6CB93B4385950820228636EF52215D0AE7DFB'"),
    ("merkle root a number", lambda p: p["merkle"].__setitem__("root", 1),
     "the proof's merkle 'root' is not hexadecimal text: 1"),
    ("leaf a list", _set("leaf", []), "the proof's 'leaf' is not hexadecimal text: []"),
    ("manifest_sha256 a number", _set("manifest_sha256", 0), "the proof's 'manifest_sha256' is not text: 0"),
    ("tickets text", _set("tickets", "300000"), "the proof's 'tickets' is not an integer: '300000'"),
    ("a row value a float", lambda p: p["row"].__setitem__("prize_cents", 1.5),
     "the proof's row: column 'prize_cents': 1.5 has no encoding (only integers, strings, booleans)"),
    ("a field nothing reads", _set("note\n\x1b", "paid"), "the proof holds a field no checker reads: "
                                                           "['note\\n\\x1b']"),
    ("a merkle field nothing reads", lambda p: p["merkle"].__setitem__("tree", 1),
     "the proof's merkle holds a field no checker reads: ['tree']"),
    ("not a proof", lambda p: p.clear(), "not a poolgen-proof/2 document"),
    ("a v1 proof", _set("format", "poolgen-proof/1"), "not a poolgen-proof/2 document"),
]

INVALID_PROOFS = [
    ("path hash moved to the other side", lambda p: p["path"][0]["right"].append(p["path"][0]["left"].pop()),
     "path step 0 has 1 left and 14 right hashes; position 1234 in a tree of 300000 leaves needs 2 and 13"),
    ("path one level short", lambda p: p["path"].pop(),
     "the path has 4 steps; position 1234 in a tree of 300000 leaves has 5"),
    ("tickets wrong", _set("tickets", 5), "the proof says the pool has 5 tickets; it has 300000"),
    ("run_id of another run", _set("run_id", "r2"), "the proof's run_id 'r2' is not the manifest's 'r'"),
    ("salt upper case", lambda p: p["row"].__setitem__("salt", p["row"]["salt"].upper()),
     "the row has no salt of 32 lower-case hex digits: without one the path's neighbouring hashes could "
     "be guessed (docs/merkle.md, section 2)"),
    ("salt missing", lambda p: p["row"].pop("salt"),
     "the row's columns ['book', 'play_spot_0', 'play_spot_1', 'play_spot_2', 'play_spot_3', "
     "'play_spot_4', 'play_spot_5', 'position', 'prize_cents', 'ticket', 'ticket_no', 'tier'] are not "
     "the pool's ['book', 'play_spot_0', 'play_spot_1', 'play_spot_2', 'play_spot_3', 'play_spot_4', "
     "'play_spot_5', 'position', 'prize_cents', 'salt', 'ticket', 'ticket_no', 'tier']"),
]


def _check(base, tmp_path, edit):
    proof = json.loads(json.dumps(base["proof"]))
    edit(proof)
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    result = CliRunner().invoke(audit_app, ["check-proof", str(path), str(base["run"] / "manifest.json"),
                                            "--public-key", str(base["public"])])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return path, result


@pytest.mark.parametrize(("edit", "why"), [(e, w) for _, e, w in MALFORMED_PROOFS],
                         ids=[name for name, _, _ in MALFORMED_PROOFS])
def test_check_proof_with_a_field_of_the_wrong_type_is_unusable_input(base, tmp_path, edit, why):
    path, result = _check(base, tmp_path, edit)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == f"audit: error: {path}: not a usable proof: {why}\n"


@pytest.mark.parametrize(("edit", "why"), [(e, w) for _, e, w in INVALID_PROOFS],
                         ids=[name for name, _, _ in INVALID_PROOFS])
def test_check_proof_of_a_well_formed_proof_the_pool_does_not_hold_is_invalid(base, tmp_path, edit, why):
    _, result = _check(base, tmp_path, edit)
    assert result.exit_code == 1, result.output
    assert result.stdout == f"INVALID proof: {why}\n"


def test_check_proof_of_a_json_list_is_unusable_input(base, tmp_path):
    path = tmp_path / "proof.json"
    path.write_text("[1, 2]")
    result = CliRunner().invoke(audit_app, ["check-proof", str(path), str(base["run"] / "manifest.json"),
                                            "--public-key", str(base["public"])])
    assert result.exit_code == 2
    assert result.stderr == f"audit: error: {path}: not a usable proof: not a poolgen-proof/2 document\n"


def test_the_untouched_proof_is_valid(base, tmp_path):
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(base["proof"]))
    result = CliRunner().invoke(audit_app, ["check-proof", str(path), str(base["run"] / "manifest.json"),
                                            "--public-key", str(base["public"])])
    assert result.exit_code == 0
    assert result.stdout.startswith(f"valid proof: ticket {TICKET} (pool p1, position 1,234 of 300,000")
