"""A seeded mutation corpus over the four specs and the three play-style examples, a run's manifest and
a ticket's claim (issue 16).

Every mutation is made from a fixed seed (`random.Random(case)`: test data, not outcomes), so a
failure names its case and can be replayed. The bulk runs in this process: the loader and the
check for 2,000 mutated specs, the verifier's readers and checklist for mutated manifests and
claims, each under a per-case time limit (SIGALRM). A mutated input may be accepted, or refused
with the tool's own one-line error; any other exception, or a case over its time limit, fails the
test. A sample then runs as real `poolgen check` / `poolgen generate` processes: exit 2, exactly one
line on stderr (the in-process message), no traceback.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.errors import InvalidProof, UnusableInput
from audit.proof import check_proof
from audit.read.limits import parse_json, read_manifest_bytes
from audit.read.manifest import Manifest, ManifestError, load_public_key
from audit.verify import VerifyRequest, verify_run
from poolgen.check.game import check_spec
from poolgen.cli.main import app
from poolgen.errors import PoolgenError
from poolgen.game.model import Game
from poolgen.loader import load_spec
from tests.support import SEED_A, small_happy_holidays, spec_path
from tests.support.virns import virn_of

GAMES = ("wild_side", "happy_holidays", "hand_to_hand_tactics", "primetime_payout")
SPECS_PER_GAME = 500  # 2,000 mutated specs a run
STYLE_GAMES = ("examples/hit_50", "examples/cash_explosion", "examples/double_take")  # format 2
SPECS_PER_STYLE_GAME = 150  # and 450 more of the play-style examples
SUBPROCESS_CASES = 15  # each run as `poolgen check` and `poolgen generate`: 30 processes
CASE_SECONDS = 30  # a case that takes longer hangs (the slowest honest case takes about 2 s)

HOSTILE = [
    '"1E+999999999"', '"1e-999999999"', '"0.00"', '"0"', '"-1"', '"NaN"', '"-Infinity"', '"x"', '""',
    '"' + "9" * 40 + '"', '"9' + "0" * 16 + '"', '"0.' + "0" * 20 + '1"', '"$1,2,3"', '"1/0"', '"0/0"',
    '"99999999999/1"', '"1E+15"', '"1e400"', "1000000000", "10000000", "-1", "0", "1", "9" * 25,
    "9" * 5000, "1.5", "1e400", "inf", "nan", "true", "[]", "{}", "[1, 1000]", '["1E+999999999"]',
    "[" * 40 + "]" * 40, "[" * 20 + "1" + "]" * 20, '"' + "a" * 20_000 + '"', '{ a = { b = { c = 1 } } }',
    "[0, -1]", '[1, 1, 1]', '["1.00", "1.00"]', "0x10", '"\\u0000"', '"03"', '"xx"',
]
_ASSIGNMENT = re.compile(r"^(\s*[\w\".-]+\s*=\s*)(.+?)\s*(#.*)?$")


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of a TOML (or JSON) text: values, types, nesting, deletions, bytes."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        op = rng.random()
        i = rng.randrange(len(lines))
        if op < 0.45:  # a value replaced by a hostile one
            candidates = [j for j, line in enumerate(lines) if _ASSIGNMENT.match(line)]
            if candidates:
                j = rng.choice(candidates)
                m = _ASSIGNMENT.match(lines[j])
                lines[j] = m.group(1) + rng.choice(HOSTILE)
        elif op < 0.60:  # digits changed in place
            runs = [(j, m) for j, line in enumerate(lines) for m in re.finditer(r"\d+", line)]
            if runs:
                j, m = rng.choice(runs)
                digits = "".join(rng.choice("0123456789") for _ in range(rng.choice([1, 2, 7, 16, 19, 30])))
                lines[j] = lines[j][:m.start()] + digits + lines[j][m.end():]
        elif op < 0.72:  # a line deleted
            del lines[i]
        elif op < 0.78:  # a line duplicated
            lines.insert(i, lines[i])
        elif op < 0.84:  # a line swapped with another
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        elif op < 0.88:  # truncated
            return "\n".join(lines)[:rng.randrange(len(text) + 1)]
        elif op < 0.92:  # random bytes (as characters) inserted
            noise = "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randint(1, 8)))
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + noise + lines[i][k:]
        elif op < 0.96:  # a string's text changed
            quoted = [(j, m) for j, line in enumerate(lines) for m in re.finditer(r'"([^"\\]*)"', line)]
            if quoted:
                j, m = rng.choice(quoted)
                lines[j] = lines[j][:m.start(1)] + rng.choice(["", "1", "lose", "p1", "x" * 300, "03"]) \
                    + lines[j][m.end(1):]
        else:  # deep nesting
            lines.insert(i, "deep = " + "[" * rng.choice([10, 33, 200, 3000]) + "]" * 3000)
        text = "\n".join(lines)
    return text


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


def _run_case(fn) -> str | None:
    """None if `fn` finished or raised an expected error; else what went wrong."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        fn()
    except Hang:
        return f"no answer within {CASE_SECONDS} s"
    except (PoolgenError, UnusableInput, InvalidProof, ManifestError) as exc:
        if "\n" in str(exc):
            return f"a message of more than one line: {str(exc)!r}"
    except BaseException as exc:  # noqa: BLE001 - anything else is the failure this test looks for
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return None


@pytest.fixture(scope="module")
def spec_corpus(tmp_path_factory) -> list[tuple[str, Path, str | None]]:
    """(case id, mutated spec file, the loader's message or None if it loads) for 2,450 cases, each run
    in this process through the loader and the check."""
    root = tmp_path_factory.mktemp("fuzz")
    corpus, failures = [], []
    # (the game loaded, the check's message or none): a mutant that loads as a game checked before, its
    # file's path and hash aside, is that game's check again (check_spec is a function of the game and
    # reads only the file's name): its outcome is taken, not computed twice (the Primetime Payout check
    # lays out 16 pools, 0.5 s)
    checked: list[tuple[Game, list[str]]] = []
    started = time.monotonic()
    plan = [(g, SPECS_PER_GAME) for g in GAMES] + [(g, SPECS_PER_STYLE_GAME) for g in STYLE_GAMES]
    case = -1
    for game, cases in plan:
        original = spec_path(game).read_text()
        for _ in range(cases):
            case += 1
            folder = root / f"c{case}"
            folder.mkdir()
            path = folder / f"{Path(game).name}.toml"  # the real name: messages name the file
            path.write_text(mutate(original, random.Random(case)), encoding="utf-8", errors="surrogatepass")
            refused: list[str] = []

            def load_and_check(path=path, refused=refused):
                try:
                    game = load_spec(path)
                    same = replace(game, path=Path(game.path.name), sha256="")  # all check reads of them
                    known = next((outcome for seen, outcome in checked if seen == same), None)
                    if known is not None:  # a game loaded before (a mutant of comments, spacing, ...)
                        refused.extend(known)
                        return
                    try:
                        check_spec(game)
                    except PoolgenError as exc:
                        checked.append((same, [str(exc)]))
                        raise
                    checked.append((same, []))
                except PoolgenError as exc:
                    refused.append(str(exc))
                    raise
            problem = _run_case(load_and_check)
            if problem:
                failures.append(f"case {case} ({game}): {problem}")
            corpus.append((f"{case}", path, refused[0] if refused else None))
    elapsed = time.monotonic() - started
    print(f"\nfuzz: {len(corpus)} mutated specs in {elapsed:.1f} s in process, "
          f"{sum(1 for c in corpus if c[2])} refused")
    assert not failures, "\n".join(failures[:10])
    return corpus


def test_two_thousand_mutated_specs_in_process(spec_corpus):
    assert len(spec_corpus) == len(GAMES) * SPECS_PER_GAME + len(STYLE_GAMES) * SPECS_PER_STYLE_GAME
    assert len(GAMES) * SPECS_PER_GAME >= 2000
    refused = [c for c in spec_corpus if c[2]]
    assert len(refused) > len(spec_corpus) // 2  # the corpus is hostile, not a list of honest specs
    names = {f"{Path(g).name}.toml" for g in GAMES + STYLE_GAMES}
    assert all(msg.split(":", 1)[0] in names or msg.startswith("/")
               for _, _, msg in refused), "a message that names no file"


def _process(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "poolgen", *args], capture_output=True, timeout=120)


def test_a_sample_as_real_processes(spec_corpus, tmp_path):
    refused = [c for c in spec_corpus if c[2]]
    sample = refused[::max(1, len(refused) // SUBPROCESS_CASES)][:SUBPROCESS_CASES]
    jobs = [(case, path, message, ["check", str(path)]) for case, path, message in sample]
    jobs += [(case, path, message, ["generate", str(path), "--out", str(tmp_path / case), "--unsigned",
                                    "--workers", "1"]) for case, path, message in sample]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: (job, _process(job[3])), jobs))
    for (case, _path, message, args), result in results:
        stderr = result.stderr.decode("utf-8", "replace")
        assert "Traceback" not in stderr, (case, args[0], stderr[-2000:])
        assert result.returncode == 2, (case, args[0], result.returncode, stderr)
        assert stderr.splitlines() == [f"poolgen: error: {message}"], (case, args[0], stderr)
        assert not (tmp_path / case).exists() or not any((tmp_path / case).iterdir())


# ---- manifests and claims -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A signed run of one Happy Holidays pool cut to 3,000 tickets, and a claim of one of its tickets."""
    root = tmp_path_factory.mktemp("small")
    spec = small_happy_holidays(root, 3000)
    assert CliRunner().invoke(app, ["keys", "new", str(root / "keys")]).exit_code == 0
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = CliRunner().invoke(app, ["generate", str(spec), "--out", str(root), "--run-id", "r",
                                    "--seed-file", str(seed), "--key", str(root / "keys" / "signing-key.pem"),
                                    "--workers", "1"])
    assert made.exit_code == 0, made.output
    proof = CliRunner().invoke(app, ["prove", str(root / "r"), "465-0000001-007",
                                     virn_of(root / "r", "465-0000001-007"), "--json"])
    assert proof.exit_code == 0, proof.output
    return root, proof.stdout


MANIFEST_CASES = 300
CLAIM_CASES = 300
VERIFY_CASES = 60


def test_mutated_manifests_and_claims(small_run, tmp_path):
    root, claim_text = small_run
    key = load_public_key(root / "keys" / "signing-key.pub.pem")
    original = (root / "r" / "manifest.json").read_text()
    pretty = json.dumps(json.loads(original), indent=1)  # one field a line, for line-wise mutations
    honest_claim = json.loads(claim_text)
    failures = []
    started = time.monotonic()
    for case in range(MANIFEST_CASES):
        rng = random.Random(10_000 + case)
        text = mutate(pretty if rng.random() < 0.8 else original, rng)
        run = tmp_path / f"m{case}"
        run.mkdir()
        (run / "manifest.json").write_text(text, encoding="utf-8", errors="surrogatepass")
        shutil.copy(root / "r" / "manifest.sig", run / "manifest.sig")
        if case < VERIFY_CASES:
            for name in ("pool-p1.parquet",):
                (run / name).symlink_to(root / "r" / name)

        def read_and_check(run=run, case=case):
            data = read_manifest_bytes(run / "manifest.json")
            with contextlib.suppress(ManifestError):
                Manifest.parse(data)
            with contextlib.suppress(InvalidProof):
                check_proof(honest_claim, run / "manifest.json", key)
            if case < VERIFY_CASES:
                verify_run(VerifyRequest(run=run, public_key=root / "keys" / "signing-key.pub.pem",
                                         workers=1))
        problem = _run_case(read_and_check)
        if problem:
            failures.append(f"manifest case {case}: {problem}")
    for case in range(CLAIM_CASES):
        rng = random.Random(20_000 + case)
        text = mutate(claim_text if rng.random() < 0.5 else json.dumps(honest_claim, indent=1), rng)

        def parse_and_check(text=text):
            proof = parse_json(text.encode("utf-8", "surrogatepass"), "claim.json", "proof", floats=True)
            check_proof(proof, root / "r" / "manifest.json", key)
        problem = _run_case(parse_and_check)
        if problem:
            failures.append(f"claim case {case}: {problem}")
    print(f"\nfuzz: {MANIFEST_CASES} manifests ({VERIFY_CASES} through the whole checklist) and "
          f"{CLAIM_CASES} "
          f"claims in {time.monotonic() - started:.1f} s")
    assert not failures, "\n".join(failures[:10])
