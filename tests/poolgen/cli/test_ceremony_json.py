"""`poolgen ceremony new|commit|publish|reveal|seal|abort --json`: each step's outcome as one JSON document
on standard output (the shape of `ceremony status --json`: snake_case keys, paths as given), never a
contribution, a revealed value or the seed."""

from __future__ import annotations

import hashlib
import json

from poolgen.seeds.ceremony_file import load
from tests.support.ceremony import (
    CLOSE,
    PARTIES,
    QUICKNET,
    ROUND,
    invoke,
    key,
    new_args,
    ok,
    round_file,
)


def _json(*args: str, now: str | None = None) -> dict:
    result = ok(*args, "--json") if now is None else ok(*args, "--json", now=now)
    return json.loads(result.stdout)


def test_every_step_of_a_ceremony_says_what_it_did_as_json_and_no_secret(tmp_path):
    file = tmp_path / "c1.ceremony"
    made = _json(*new_args(tmp_path, file))
    transcript = load(file).transcript_sha256
    assert set(made) == {"ceremony_file", "mode", "ceremony", "transcript_sha256", "binds", "beacon",
                         "reveals_close", "parties"}
    assert (made["ceremony_file"], made["mode"], made["ceremony"], made["transcript_sha256"]) == \
        (str(file), "0600", "c1", transcript)
    assert made["beacon"] == {"chain": "quicknet", "round": ROUND, "due": "2023-08-23T15:59:24Z"}
    assert (made["reveals_close"], made["parties"], made["binds"]["run_id"]) == (CLOSE, list(PARTIES), "r")

    said = []
    for n, party in enumerate(PARTIES):
        contribution = tmp_path / f"{party}.contribution"
        done = _json("ceremony", "commit", str(file), "--party", party, "--key", key(file, party),
                     "--contribution", str(contribution), "--yes")
        entry = load(file).commitments[n]
        assert entry is not None
        assert done == {"ceremony": "c1", "party": party, "commitment": entry["commitment"],
                        "contribution_file": str(contribution), "mode": "0600",
                        "waiting_to_commit": list(PARTIES[n + 1:])}
        said.append(json.dumps(done))

    bundle = tmp_path / "c1.public.json"
    published = _json("ceremony", "publish", str(file), "--out", str(bundle))
    assert published == {"bundle": str(bundle), "ceremony": "c1", "transcript_sha256": transcript,
                         "sha256": hashlib.sha256(bundle.read_bytes()).hexdigest()}

    for n, party in enumerate(PARTIES):
        done = _json("ceremony", "reveal", str(file), "--party", party, "--key", key(file, party),
                     "--contribution", str(tmp_path / f"{party}.contribution"), "--yes")
        assert done == {"ceremony": "c1", "party": party, "revealed": True, "matches_commitment": True,
                        "waiting_to_reveal": list(PARTIES[n + 1:])}
        said.append(json.dumps(done))

    sealed = _json("ceremony", "seal", str(file), "--round", str(round_file(tmp_path)), "--yes",
                   now="2023-08-23T16:00:00Z")
    assert sealed == {"ceremony": "c1", "sealed": True, "beacon": {"chain": "quicknet", "round": ROUND},
                      "transcript_sha256": transcript, "seed_commitment": load(file).sealed}
    for party in PARTIES:  # no contribution's value in anything printed
        value = json.loads((tmp_path / f"{party}.contribution").read_bytes())["value"]
        assert all(value not in text for text in [*said, json.dumps(sealed)])
    assert QUICKNET not in json.dumps(sealed)  # the chain by name, as `status` gives it


def test_abort_as_json(tmp_path):
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    done = _json("ceremony", "abort", str(file), "--reason", "a party's key was lost", "--key",
                 key(file, "lottery"), "--yes")
    assert done == {"ceremony": "c1", "aborted": True, "aborted_by": "lottery",
                    "reason": "a party's key was lost"}
    assert invoke("ceremony", "status", str(file)).stdout.splitlines()[-1].endswith(
        "aborted by lottery: a party's key was lost")
