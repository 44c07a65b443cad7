"""`poolgen ceremony new`'s own inputs: an empty --run-id (an unset shell variable) is refused naming the
option, never read as "the ceremony id"; the spec is named as typed in every line, as every other
command names it (two folders' wild_side.toml are told apart)."""

from __future__ import annotations

from tests.support import spec_path
from tests.support.ceremony import invoke, new_args, refused


def test_an_empty_run_id_is_refused_naming_the_option(tmp_path):
    file = tmp_path / "c1.ceremony"
    args = new_args(tmp_path, file)
    args[args.index("--run-id") + 1] = ""
    refused(invoke(*args), "--run-id '': use letters, digits, '.', '_' and '-' only, starting with a "
                           "letter or digit (one folder name, at most 128 characters)")
    assert not file.exists()


def test_ceremony_new_names_the_spec_as_typed(tmp_path):
    file = tmp_path / "c1.ceremony"
    result = invoke(*new_args(tmp_path, file))
    assert result.exit_code == 0, result.output
    typed = str(spec_path("wild_side"))
    assert f"it binds spec {typed} (" in result.stderr


def test_a_split_spec_refused_for_one_pool_is_named_as_typed(tmp_path):
    file = tmp_path / "c1.ceremony"
    typed = str(spec_path("examples/bazinga_bingo"))
    result = invoke(*new_args(tmp_path, file, spec="examples/bazinga_bingo"))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"poolgen: error: --pool: {typed} splits its order's counts over its "
                                    "pools (printed.split)")
    assert not file.exists()
