"""What a printer hands back to `imaging check` and `unseal --manifest`: the files that arrived and the
manifest they are compared with. Anything that is not a regular file (a FIFO, /dev/zero: never read,
so never waited on), a missing file, and a manifest that is not one (a JSON list, a deliverable whose
size is text) is one line, exit 2; never a traceback, never a hang."""

from __future__ import annotations

import json
import os

import pytest

from tests.support.cli import invoke, one_line


@pytest.fixture()
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_an_arriving_file_that_is_not_a_regular_file_is_one_line(printed_run, tmp_path, fifo):
    manifest = printed_run / "runs" / "r" / "manifest.json"
    for given, message in [(fifo, f"{fifo}: is not a regular file (a pipe, device or socket); give a "
                                  "deliverable file"),
                           ("/dev/zero", "/dev/zero: is not a regular file"),
                           (tmp_path, f"{tmp_path}: is a folder, not a deliverable file"),
                           (tmp_path / "gone", f"{tmp_path / 'gone'}: deliverable file not found")]:
        one_line(invoke("imaging", "check", given, "--manifest", manifest), "poolgen", message)


def _manifests(printed_run, tmp_path) -> dict[str, tuple[object, str]]:
    doc = json.loads((printed_run / "runs" / "r" / "manifest.json").read_bytes())
    text_size = json.loads(json.dumps(doc))
    text_size["deliverables"][2]["bytes"] = str(text_size["deliverables"][2]["bytes"])
    (tmp_path / "list.json").write_text("[1]")
    (tmp_path / "text-size.json").write_text(json.dumps(text_size))
    return {
        "a folder": (tmp_path, f"{tmp_path}: is a folder, not a manifest file"),
        "missing": (tmp_path / "gone.json", f"{tmp_path / 'gone.json'}: manifest file not found"),
        "a JSON list": (tmp_path / "list.json", f"{tmp_path / 'list.json'}: not a valid poolgen manifest: "
                                                "not a JSON object"),
        "a size as text": (tmp_path / "text-size.json",
                           f"{tmp_path / 'text-size.json'}: not a valid poolgen manifest: deliverables[2]: "
                           "not an entry of a name and, with a sha256, its bytes"),
    }


@pytest.mark.parametrize("case", ["a folder", "missing", "a JSON list", "a size as text"])
def test_imaging_check_against_a_manifest_that_is_not_one_is_one_line(printed_run, tmp_path, case):
    given, message = _manifests(printed_run, tmp_path)[case]
    result = invoke("imaging", "check", printed_run / "runs" / "r" / "packs.csv", "--manifest", given)
    one_line(result, "poolgen", message)


@pytest.mark.parametrize("case", ["a folder", "missing", "a JSON list", "a size as text"])
def test_unseal_against_a_manifest_that_is_not_one_is_one_line_and_writes_nothing(printed_run, tmp_path,
                                                                                  case):
    keys = tmp_path / "recipient"
    assert invoke("keys", "recipient", keys).exit_code == 0
    sealed = tmp_path / "packs.sealed"
    made = invoke("seal", printed_run / "runs" / "r" / "packs.csv", "--to", keys / "recipient-key.pub.pem",
                  "--out", sealed)
    assert made.exit_code == 0, made.output
    given, message = _manifests(printed_run, tmp_path)[case]
    result = invoke("unseal", sealed, "--key", keys / "recipient-key.pem", "--out", tmp_path / "opened",
                    "--manifest", given)
    one_line(result, "poolgen", message)
    assert not (tmp_path / "opened").exists()
