"""The PDFs the back-office reports draw (`claims report|close --pdf`, `sales report --pdf`): written
mode 0600 whatever the umask, never over an existing file without `--force`, never into a run folder
(where `--pdf RUN/manifest.json` replaced the run's manifest with a PDF). The runs are the conftest's."""

from __future__ import annotations

import json
import os

import polars as pl
import pytest

from tests.support.cli import invoke, one_line
from tests.support.pdf import pages


@pytest.fixture(scope="module")
def ledger(office, tmp_path_factory):
    path = tmp_path_factory.mktemp("ledger") / "claims.sqlite"
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(4)
    paid = invoke("validate", office["folder"],
                  "--public-key", office["public"], b, v, "--validation-key", office["root"] / "low.key",
                  "--index-dir", office["index"], "--ledger", path)
    assert paid.exit_code == 0, paid.output
    return path


@pytest.mark.parametrize("command", ["report", "close"])
def test_a_report_pdf_is_0600_whatever_the_umask(office, ledger, tmp_path, command):
    out = tmp_path / "page.pdf"
    old = os.umask(0)
    try:
        result = invoke("claims", command, office["folder"], "--ledger", ledger, "--pdf", out)
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert out.stat().st_mode & 0o777 == 0o600 and out.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("command", ["report", "close"])
def test_a_report_pdf_never_replaces_a_file_without_force(office, ledger, tmp_path, command):
    out = tmp_path / "page.pdf"
    out.write_bytes(b"last week's figures")
    result = invoke("claims", command, office["folder"], "--ledger", ledger, "--pdf", out)
    one_line(result, "poolgen", f"{out}: already exists; not overwriting it (--force replaces it)")
    assert out.read_bytes() == b"last week's figures" and result.stdout == ""
    forced = invoke("claims", command, office["folder"], "--ledger", ledger, "--pdf", out, "--force")
    assert forced.exit_code == 0 and out.read_bytes().startswith(b"%PDF-")
    assert out.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("command", ["report", "close"])
def test_a_report_pdf_is_never_written_into_the_run_folder(office, ledger, command):
    manifest = office["folder"] / "manifest.json"
    before = manifest.read_bytes()
    result = invoke("claims", command, office["folder"], "--ledger", ledger, "--pdf", manifest, "--force")
    one_line(result, "poolgen", f"{manifest}: inside the run folder {office['folder']}; keep the PDF file "
                                "outside run folders")
    assert manifest.read_bytes() == before
    assert sorted(p.name for p in office["folder"].iterdir() if p.name.endswith(".pdf")) == []


def test_a_sales_report_pdf_is_0600_and_never_replaces_a_file(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    sold = invoke("sales", "sell", einstant["folder"],
                  "--public-key", einstant["public"], "--ledger", ledger, "--pool", "d1.00", "--channel",
                  "web", "--player", "p1")
    assert sold.exit_code == 0, sold.output
    out = tmp_path / "remaining.pdf"
    out.write_bytes(b"keep")
    result = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--pdf", out)
    one_line(result, "poolgen", f"{out}: already exists; not overwriting it (--force replaces it)")
    assert out.read_bytes() == b"keep"
    old = os.umask(0)
    try:
        forced = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--closing", "--pdf", out,
                        "--force")
    finally:
        os.umask(old)
    assert forced.exit_code == 0 and out.read_bytes().startswith(b"%PDF-")
    assert out.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("name", ["Cash & Carry <Deluxe>", "Win <b>Big", "R&D; <font size=40>"])
def test_a_report_pages_title_is_the_games_name_as_written(name):
    """The page's title and lines are text, not reportlab markup: a game named "Cash & Carry <Deluxe>"
    was published as "Cash & Carry (7)", and "Win <b>Big" made a ValueError traceback instead of a page."""
    from poolgen.pdf.remaining import table_page  # noqa: PLC0415  # the page alone, without a run

    pdf = table_page(f"{name} (7): prizes remaining", [f"Run r&d <1>; {name}."], ["Prize", "Total"],
                     [["$1.00", "3"]])
    text = pages(pdf)[0]
    assert text.startswith(f"{name} (7): prizes remaining Run r&d <1>; {name}. Prize Total $1.00 3"), text


@pytest.mark.parametrize("command", ["claims report", "claims close", "sales report"])
def test_a_report_pdf_never_replaces_a_dangling_symbolic_link_without_force(office, einstant, ledger,
                                                                           tmp_path, command):
    """A symbolic link to a missing file at --pdf is an existing name (section 6: never over an existing
    file unless given --force): it was replaced without a word; --force replaces the link itself, never
    writing through it."""
    if command == "sales report":
        sales = tmp_path / "sales.sqlite"
        assert invoke("sales", "sell", einstant["folder"], "--public-key", einstant["public"], "--ledger",
                      sales, "--pool", "d1.00", "--channel", "web", "--player", "p1").exit_code == 0
        args = ["sales", "report", einstant["folder"], "--ledger", sales]
    else:
        args = [*command.split(), office["folder"], "--ledger", ledger]
    out, target = tmp_path / "page.pdf", tmp_path / "elsewhere.pdf"
    out.symlink_to(target)
    result = invoke(*args, "--pdf", out)
    one_line(result, "poolgen", f"{out}: already exists; not overwriting it (--force replaces it)")
    assert out.is_symlink() and not target.exists() and result.stdout == ""
    forced = invoke(*args, "--pdf", out, "--force")
    assert forced.exit_code == 0, forced.output
    assert not out.is_symlink() and out.read_bytes().startswith(b"%PDF-") and not target.exists()


@pytest.mark.parametrize("command", ["claims report", "claims close", "sales report"])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_report_pdf_written_is_named_on_stderr_and_stdout_stays_the_report(office, einstant, ledger,
                                                                            tmp_path, command, as_json):
    """`--pdf OUT` wrote the page without a word (every other command names what it wrote): one line on
    stderr names it; stdout is the same report as without --pdf (with --json, still one JSON document)."""
    if command == "sales report":
        sales = tmp_path / "sales.sqlite"
        assert invoke("sales", "sell", einstant["folder"], "--public-key", einstant["public"], "--ledger",
                      sales, "--pool", "d1.00", "--channel", "web", "--player", "p1").exit_code == 0
        args = ["sales", "report", einstant["folder"], "--ledger", sales]
    else:
        args = [*command.split(), office["folder"], "--ledger", ledger]
    args += ["--json"] if as_json else []
    out = tmp_path / "page.pdf"
    result = invoke(*args, "--pdf", out)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1:] == [f"wrote PDF {out} (mode 0600)"]
    assert out.read_bytes().startswith(b"%PDF-")
    without = invoke(*args)
    assert "wrote PDF" not in without.stderr
    if as_json:
        assert json.loads(result.stdout).keys() == json.loads(without.stdout).keys()
    else:
        assert result.stdout.splitlines()[1:] == without.stdout.splitlines()[1:]  # line 0 holds the time
