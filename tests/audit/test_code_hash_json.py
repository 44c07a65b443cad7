"""`python -m audit code-hash DIR --json`: the folder, the hash and the files hashed, as a manifest's
tool.code gives them, for a script to compare."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.run.provenance import code_entry, package_folder


def test_code_hash_json_is_the_manifests_tool_code():
    code = code_entry()
    result = CliRunner().invoke(audit_app, ["code-hash", str(package_folder()), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"folder": str(package_folder()), "sha256": code["sha256"],
                                         "files": code["files"]}
