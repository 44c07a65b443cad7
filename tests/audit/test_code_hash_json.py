"""`python -m audit code-hash DIR --json`: the folder, the algorithm, the hash and the files hashed, as a
manifest's tool.code gives them, for a script to compare (v2; v1 with --v1)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.provenance import code_hash
from audit.read.fields import CODE_HASH_V1
from poolgen.run.provenance import code_entry, package_folder


def test_code_hash_json_is_the_manifests_tool_code():
    code = code_entry()
    result = CliRunner().invoke(audit_app, ["code-hash", str(package_folder()), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"folder": str(package_folder()), **code}


def test_code_hash_v1_json_is_an_older_manifests_tool_code():
    result = CliRunner().invoke(audit_app, ["code-hash", str(package_folder()), "--v1", "--json"])
    assert result.exit_code == 0, result.output
    digest, count = code_hash(package_folder(), 1)
    assert json.loads(result.stdout) == {"folder": str(package_folder()), "algorithm": CODE_HASH_V1,
                                         "sha256": digest, "files": count}
    assert digest != code_entry()["sha256"] and count < code_entry()["files"]
