"""What an adversary may hand the desk (issue 29): validation files the manifest does not vouch for,
ledgers that are not the tool's own, a locked ledger, and look-alike digits or newlines in arguments;
each refused in one exact line, exit 2, no traceback, nothing paid. The run is the conftest's `office`."""

from __future__ import annotations

import os
import shutil
import sqlite3
import string

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poolgen.backoffice.claims import CLAIMS
from poolgen.backoffice.owned import APPLICATION_ID
from poolgen.deliverables.validation import derive, read_validation_key, record
from tests.support.cli import invoke, one_line


def _claim(office, run, tid, virn, *more, index=None):
    return invoke("validate", run, tid, virn,
                  "--public-key", office["public"], "--validation-key", office["root"] / "low.key",
                  "--index-dir", index or office["index"], *more)


def _loser(office):
    return office["rows"].filter(pl.col("tier") == "lose").row(0)


def _winner(office):
    return office["rows"].filter(pl.col("tier") == "5").row(0)


def _copy(office, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    return run


def _refused(result, line):
    one_line(result, "poolgen", line)
    assert result.stderr == f"poolgen: error: {line}\n" and result.stdout == ""


def _sha(path):
    import hashlib  # noqa: PLC0415  # only these tests hash

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _restate(run, name, office=None):
    """Make the manifest vouch for the changed file: as a forger without the signing key would (its
    signature then fails), or, given `office`, signed again as an insider holding that key would (the
    desk's own checks of the file are then all that stand)."""
    import json  # noqa: PLC0415  # only here

    from poolgen.run.signing import Signer  # noqa: PLC0415  # only the insider's case signs

    doc = json.loads((run / "manifest.json").read_bytes())
    for f in doc["deliverables"]:
        if f["name"] == name:
            f["sha256"], f["bytes"] = _sha(run / name), (run / name).stat().st_size
    (run / "manifest.json").write_text(json.dumps(doc, indent=2))
    if office is not None:
        Signer.from_file(office["private"]).sign_run(run)


def test_a_re_encrypted_record_is_never_paid(office, tmp_path):
    run = _copy(office, tmp_path)
    b, v, *_ = _loser(office)
    key = read_validation_key(office["root"] / "low.key")
    path = run / "validation-low.bin"
    data = path.read_bytes()
    d = derive(key, "hh", b, v)
    at = data.index(d[:16])
    path.write_bytes(data[:at] + record(key, "hh", b, v, 99999900) + data[at + 32:])
    name = "validation-low.bin"
    _refused(_claim(office, run, b, v, index=tmp_path / "i1"),
             f"{path}: its SHA-256 is not the one the manifest vouches for; the file was changed, "
             "refusing it")
    _restate(run, name)  # the manifest changed too: its signature no longer holds
    _refused(_claim(office, run, b, v, index=tmp_path / "i2"),
             f"{run / 'manifest.sig'}: the signature does not verify with the given public key "
             f"({_fingerprint(office)}); the run is not the signed one")


def _fingerprint(office):
    from poolgen.run.signing import fingerprint, load_public_key  # noqa: PLC0415  # only here

    return fingerprint(load_public_key(office["public"]))


def test_reversed_records_are_refused(office, tmp_path):
    run = _copy(office, tmp_path)
    path = run / "validation-low.bin"
    data = path.read_bytes()
    end = data.index(b"\n") + 1
    n = 18000
    recs = [data[end + 32 * i:end + 32 * i + 32] for i in range(n)]
    path.write_bytes(data[:end] + b"".join(reversed(recs)) + data[end + 32 * n:])
    b, v, *_ = _winner(office)
    _refused(_claim(office, run, b, v, index=tmp_path / "i1"),
             f"{path}: its SHA-256 is not the one the manifest vouches for; the file was changed, "
             "refusing it")
    _restate(run, "validation-low.bin", office)
    _refused(_claim(office, run, b, v, index=tmp_path / "i2"),
             f"{path}: its records are not in strictly ascending order; refusing it")


def _real_ledger(office, path):
    b, v, *_ = _winner(office)
    assert _claim(office, office["folder"], b, v, "--ledger", path).exit_code == 0


def _stamped(path, sql):
    db = sqlite3.connect(path)
    for s in sql:
        db.execute(s)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {CLAIMS.version}")
    db.commit()
    db.close()


PAID, ATTEMPTS = CLAIMS.schema[1], CLAIMS.schema[0]
SCHEMAS = {
    "no primary key": ([ATTEMPTS, PAID.replace(", PRIMARY KEY (run_id, barcode)) WITHOUT ROWID", ")")],
                       "a table defined differently"),
    "on conflict replace": ([ATTEMPTS, PAID.replace("PRIMARY KEY (run_id, barcode)",
                                                    "PRIMARY KEY (run_id, barcode) ON CONFLICT REPLACE")],
                            "a table defined differently"),
    "on conflict ignore": ([ATTEMPTS, PAID.replace("PRIMARY KEY (run_id, barcode)",
                                                   "PRIMARY KEY (run_id, barcode) ON CONFLICT IGNORE")],
                           "a table defined differently"),
    "trigger": ([ATTEMPTS, PAID, "CREATE TRIGGER forget AFTER INSERT ON paid BEGIN DELETE FROM paid; END"],
                "trigger forget"),
    "view": ([ATTEMPTS, PAID, "CREATE VIEW v AS SELECT * FROM paid"], "view v"),
}


@pytest.mark.parametrize("case", list(SCHEMAS))
def test_a_ledger_not_exactly_the_tools_own_is_refused(office, tmp_path, case):
    sql, differs = SCHEMAS[case]
    path = tmp_path / "claims.sqlite"
    _stamped(path, sql)
    b, v, *_ = _winner(office)
    _refused(_claim(office, office["folder"], b, v, "--ledger", path),
             f"{path}: its schema is not exactly a poolgen claims ledger's ({differs}); refusing it")


def test_an_unstamped_ledger_is_refused(office, tmp_path):
    path = tmp_path / "claims.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE claims (barcode TEXT, prize_cents INTEGER)")
    db.close()
    b, v, *_ = _winner(office)
    _refused(_claim(office, office["folder"], b, v, "--ledger", path),
             f"{path}: not a poolgen claims ledger of version 2 (application id 0x0, version 0)")


def test_files_that_are_no_ledger_are_refused(office, tmp_path):
    b, v, *_ = _winner(office)
    run = office["folder"]
    (tmp_path / "random").write_bytes(os.urandom(4096))
    (tmp_path / "text").write_text("claims\n" * 100)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    real = tmp_path / "real.sqlite"
    _real_ledger(office, real)
    (tmp_path / "link").symlink_to(real)
    cases = {
        "random": "not a poolgen claims ledger (not an SQLite database: file is not a database)",
        "text": "not a poolgen claims ledger (not an SQLite database: file is not a database)",
        "folder": "is a folder, not a claims ledger",
        "fifo": "is not a regular file (a pipe, device or socket); not a claims ledger",
        "dangling": "is a symbolic link; give the claims ledger file itself",
        "link": "is a symbolic link; give the claims ledger file itself",
    }
    for name, why in cases.items():
        _refused(_claim(office, run, b, v, "--ledger", tmp_path / name), f"{tmp_path / name}: {why}")
    assert not (tmp_path / "nowhere").exists()
    missing = tmp_path / "no-such-folder" / "claims.sqlite"
    _refused(_claim(office, run, b, v, "--ledger", missing), f"{missing}: its folder does not exist")
    for inside in (run / "manifest.json", run / "claims.sqlite", run / "sub" / "claims.sqlite"):
        _refused(_claim(office, run, b, v, "--ledger", inside),
                 f"{inside}: inside the run folder {run}; keep the claims ledger outside it")
    assert not (run / "claims.sqlite").exists()


def test_a_locked_ledger_is_refused_after_a_bounded_wait(office, tmp_path):
    path = tmp_path / "claims.sqlite"
    _real_ledger(office, path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        b, v, *_ = office["rows"].filter(pl.col("tier") == "2").row(0)
        _refused(_claim(office, office["folder"], b, v, "--ledger", path),
                 f"{path}: locked by another process for more than 3 s; try again")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


LOOKALIKE = st.characters(categories=["Nd", "No"]).filter(lambda c: c not in string.digits)


@settings(max_examples=30, deadline=None)
@given(at=st.integers(0, 14), digit=LOOKALIKE)
def test_look_alike_digits_in_a_barcode_are_refused_in_one_line(office, at, digit):
    b, v, *_ = _winner(office)
    bad = b[:at] + digit + b[at + 1:]
    result = _claim(office, office["folder"], bad, v)
    _refused(result, f"ticket {ascii(bad)}: not a barcode number (15 digits; 16 for a game numbered "
                     "1000..9999) nor a ticket id GGG-BBBBBBB-TTT "
                     "(ASCII digits only)")


@settings(max_examples=20, deadline=None)
@given(at=st.integers(0, 11), digit=LOOKALIKE)
def test_look_alike_digits_in_a_validation_number_are_refused_in_one_line(office, at, digit):
    b, v, *_ = _winner(office)
    bad = v[:at] + digit + v[at + 1:]
    _refused(_claim(office, office["folder"], b, bad),
             f"validation number {ascii(bad)}: not a validation number (1 to 32 ASCII digits)")


def test_a_newline_cannot_spoof_a_second_line(office):
    b, v, *_ = _winner(office)
    for bad in (f"{b}\n", f"{b}\nprize $999,999.00", "465-0000001-001\n"):
        _refused(_claim(office, office["folder"], bad, v),
                 f"ticket {ascii(bad)}: not a barcode number (15 digits; 16 for a game numbered "
                 "1000..9999) nor a ticket id GGG-BBBBBBB-TTT "
                 "(ASCII digits only)")
    _refused(_claim(office, office["folder"], b, f"{v}\n"),
             f"validation number {ascii(v + chr(10))}: not a validation number (1 to 32 ASCII digits)")


@settings(max_examples=25, deadline=None)
@given(flips=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(1, 255)), min_size=1, max_size=8))
def test_a_damaged_ledger_is_used_or_refused_in_one_line_never_a_traceback(office, tmp_path_factory, flips):
    folder = tmp_path_factory.mktemp("damaged")
    path = folder / "claims.sqlite"
    _real_ledger(office, path)
    b, v, *_ = office["rows"].filter(pl.col("tier") == "2").row(0)
    body = bytearray(path.read_bytes())
    for at, x in flips:
        body[at % len(body)] ^= x
    path.write_bytes(bytes(body))
    result = _claim(office, office["folder"], b, v, "--ledger", path)
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        _refused(result, result.stderr.removeprefix("poolgen: error: ").rstrip("\n"))


ARGUMENT = st.text(max_size=40).filter(lambda t: not t.startswith("-"))  # a leading "-" is an option


@settings(max_examples=40, deadline=None)
@given(tid=ARGUMENT, virn=ARGUMENT)
def test_any_ticket_and_validation_number_are_answered_or_refused_in_one_line(office, tid, virn):
    result = _claim(office, office["folder"], tid, virn)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        _refused(result, result.stderr.removeprefix("poolgen: error: ").rstrip("\n"))
    else:
        assert result.exit_code == 1 and len(result.stdout.splitlines()) == 1 and result.stderr == ""


def test_a_malformed_validation_file_is_refused_even_when_the_manifest_vouches_for_it(office, tmp_path):
    b, v, *_ = _winner(office)
    run = _copy(office, tmp_path)
    path = run / "validation-low.bin"
    data = path.read_bytes()
    cases = {"truncated": data[:-7], "no header": data.replace(b"\n", b" ", 1), "empty": b"",
             "records as a float": data.replace(b'"records":18000', b'"records":18000.0', 1),
             "a list for a header": b"[]" + data[data.index(b"\n"):]}
    for n, (_case, body) in enumerate(cases.items()):
        path.write_bytes(body)
        _restate(run, "validation-low.bin", office)
        _refused(_claim(office, run, b, v, index=tmp_path / f"i{n}"),
                 f"{path}: not a poolgen-validation/2 file")


def test_a_ledger_whose_schema_text_is_not_utf8_is_refused_in_one_line(office, tmp_path):
    path = tmp_path / "claims.sqlite"
    _real_ledger(office, path)
    body = path.read_bytes()
    at = body.index(b"NULL")  # in the CREATE TABLE text of sqlite_master
    path.write_bytes(body[:at] + b"\xce" + body[at + 1:])
    b, v, *_ = _winner(office)
    _refused(_claim(office, office["folder"], b, v, "--ledger", path),
             f"{path}: a damaged claims ledger (text that is not UTF-8); refusing it")


def test_a_ledger_whose_damaged_schema_text_holds_a_newline_is_refused_in_one_line(office, tmp_path):
    """SQLite quotes the unreadable token of a damaged schema in its message; a newline there is shown
    escaped, so the refusal stays one line."""
    path = tmp_path / "claims.sqlite"
    _real_ledger(office, path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema = ON")
    db.execute("""UPDATE sqlite_master SET sql = 'CREATE TABLE paid (a "x' || char(10) || 'y)'
                  WHERE name = 'paid'""")
    db.commit()
    db.close()
    b, v, *_ = _winner(office)
    _refused(_claim(office, office["folder"], b, v, "--ledger", path),
             f"{path}: not a poolgen claims ledger (not an SQLite database: 'malformed database schema "
             """(paid) - unrecognized token: ""x\\ny)"')""")


@pytest.mark.parametrize(("value", "shown"), [("'abc'", "'abc'"), ("1.5", "1.5"), ("x'00'", "b'\\x00'"),
                                              ("99999999999999999999", "1e+20")])
def test_a_ledger_value_of_the_wrong_type_is_refused_in_one_line(office, tmp_path, value, shown):
    """SQLite keeps text, a blob or 1.5 in an INTEGER column (and a number past 64 bits as a float): a
    paid amount that is not integer cents is refused by every reader, not cut to an integer or a
    traceback."""
    path = tmp_path / "claims.sqlite"
    _real_ledger(office, path)
    db = sqlite3.connect(path)
    db.execute(f"UPDATE paid SET prize_cents = {value}")
    db.commit()
    db.close()
    line = f"{path}: cannot use the claims ledger: a damaged row: prize_cents is {shown}, not an integer"
    b, v, *_ = _winner(office)
    _refused(_claim(office, office["folder"], b, v, "--ledger", path), line)
    for args in (["report"], ["close"], ["reconcile", "--validation-key", office["root"] / "low.key"]):
        _refused(invoke("claims", args[0], office["folder"], "--ledger", path, *args[1:]), line)


def test_a_sales_ledger_value_of_the_wrong_type_is_refused_in_one_line(einstant, tmp_path):
    path = tmp_path / "sales.sqlite"
    sold = invoke("sales", "sell", einstant["folder"],
                  "--public-key", einstant["public"], "--pool", "d1.00", "--ledger", path,
                  "--channel", "web", "--player", "p1")
    assert sold.exit_code == 0, sold.output
    db = sqlite3.connect(path)
    db.execute("UPDATE sales SET prize_cents = 2.5")
    db.commit()
    db.close()
    _refused(invoke("sales", "report", einstant["folder"], "--ledger", path),
             f"{path}: cannot use the sales ledger: a damaged row: prize_cents is 2.5, not an integer")


@pytest.mark.parametrize(("value", "kind"), [("'abc'", "str"), ("5", "int")])
def test_a_desk_index_record_that_is_not_a_blob_is_refused_in_one_line(office, tmp_path, value, kind):
    b, v, *_ = _winner(office)
    index = tmp_path / "index"
    assert _claim(office, office["folder"], b, v, index=index).exit_code == 0
    [path] = index.glob("*.sqlite")
    db = sqlite3.connect(path)
    db.execute(f"UPDATE records SET body = {value}")
    db.commit()
    db.close()
    _refused(_claim(office, office["folder"], b, v, index=index),
             f"{path}: cannot use the desk index: a damaged row: body is {kind}, not a blob")


def test_a_ledger_given_twice_is_refused_not_counted_twice(office, tmp_path):
    """The same ledger under a second name (here a hard link) made claims report publish each payment
    as two claimed prizes, and reconcile call every ticket paid twice."""
    path = tmp_path / "claims.sqlite"
    _real_ledger(office, path)
    again = tmp_path / "again.sqlite"
    os.link(path, again)
    line = f"{again}: the same claims ledger as {path}; give each ledger once"
    for args in (["report"], ["close"], ["reconcile", "--validation-key", office["root"] / "low.key"]):
        _refused(invoke("claims", args[0], office["folder"], "--ledger", path, "--ledger", again, *args[1:]),
                 line)


def test_an_empty_file_is_no_ledger_to_commands_that_only_read_one(office, einstant, tmp_path):
    """An empty file (a ledger truncated to nothing, a wrong name) was made a new, empty ledger by the
    commands that only read one: `claims reconcile` then said its 0 payments reconcile (exit 0), the
    reports said nothing was claimed or sold, and each wrote 16 KB of schema into the file it was given.
    Only the commands that record (validate --ledger, sales sell and close) make a ledger of one."""
    path = tmp_path / "empty.sqlite"
    path.touch(mode=0o600)
    claims = f"{path}: an empty file, not a claims ledger (only a command that records makes a new one)"
    for args in (["report"], ["close"], ["reconcile", "--validation-key", office["root"] / "low.key"]):
        _refused(invoke("claims", args[0], office["folder"], "--ledger", path, *args[1:]), claims)
    sales = f"{path}: an empty file, not a sales ledger (only a command that records makes a new one)"
    for args in (["report"], ["reconcile"], ["claim", "d1.00-0000001"],
                 ["void", "d1.00-0000001", "--reason", "x"]):
        _refused(invoke("sales", args[0], einstant["folder"], *args[1:], "--ledger", path,
                        "--public-key", einstant["public"]), sales)
    assert path.stat().st_size == 0
