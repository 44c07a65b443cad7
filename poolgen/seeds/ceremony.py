"""A bound, signed commit-reveal seed ceremony closed by a public beacon round (docs/ceremony.md).

`new` (poolgen/seeds/rules.py, with the rules every transcript keeps) binds what the seed is for (spec
and code SHA-256, game, pools, run id, earlier orders a reorder follows), the parties' Ed25519 public
keys and a drand round due 600 s or more after reveals close; that transcript's hash is in every
commitment. Each party commits and reveals under its own key; the
seed is derived from the closed commitments, every reveal and the round's randomness, so before the
round nobody, not even the last party to reveal, can compute it. Secrets (contributions, the seed) are
never printed. audit/steps/ceremony.py checks the same again without poolgen.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from poolgen.errors import PoolgenError
from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import Chain, Round, chain
from poolgen.seeds.seed import commitment as seed_commitment

FORMAT = "poolgen-ceremony/2"
ALGORITHM = "poolgen/ceremony/v2 (docs/ceremony.md)"
VALUE_BYTES = 32
MIN_SECRET, MAX_PARTIES = 2, 16
MIN_GAP = 600  # seconds from reveals closing to the round: a late reveal is seen (docs/ceremony.md)
MAX_TEXT = 1024  # bytes of an abort's reason
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
TIME = "%Y-%m-%dT%H:%M:%SZ"


class CeremonyError(PoolgenError):
    """A ceremony step is refused; the message says which ceremony, which party and why."""


def utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(TIME)


def parse_time(text: str, where: str) -> datetime:
    """A UTC time written YYYY-MM-DDTHH:MM:SSZ, every digit (audit compares times as text)."""
    try:  # strptime alone also reads `2023-8-23T5:0:0Z`
        if datetime.strptime(text, TIME).strftime(TIME) == text:
            return datetime.strptime(text, TIME).replace(tzinfo=UTC)
    except (TypeError, ValueError):
        pass
    raise CeremonyError(f"{where}: a UTC time is written YYYY-MM-DDTHH:MM:SSZ, not {text!r}")


def raw_key(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def key_fingerprint(raw_hex: str) -> str:
    """As poolgen/run/signing.py names keys: SHA-256 of the raw key, 16 hex digits in fours."""
    digits = hashlib.sha256(bytes.fromhex(raw_hex)).hexdigest()[:16]
    return ":".join(digits[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class Binding:
    """What the seed will be used for: one run of one game from one spec and one code."""

    spec_sha256: str
    code_sha256: str
    game: str
    pools: tuple[str, ...]
    run_id: str
    book_key_check: str | None = None  # the book key's check value (docs/validation.md), if books have one
    # earlier orders of the same pools this run reorders: {"run_id", "manifest_sha256", "transcript_sha256"}
    follows: tuple[dict[str, str], ...] = ()
    # the printed game whatever the spec's free id: its number (None for an eInstant) and its regulation
    printed: tuple[int | None, str] | None = None


@dataclass
class Ceremony:
    transcript: dict[str, Any]
    transcript_sha256: str
    commitments: list[dict[str, Any] | None] = field(default_factory=list)
    reveals: list[dict[str, Any] | None] = field(default_factory=list)
    round: dict[str, Any] | None = None
    sealed: str | None = None
    run: str | None = None
    abort: dict[str, Any] | None = None
    # the file it was loaded from (resolved) and its SHA-256: saved there, it never replaces another
    # step's save (ceremony_file.py)
    loaded: tuple[str, str] | None = field(default=None, compare=False, repr=False)

    # ---- what the transcript says --------------------------------------------------------------

    @property
    def id(self) -> str:
        return str(self.transcript["id"])

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.transcript["parties"]]

    @property
    def chain(self) -> Chain:
        return chain(self.transcript["beacon"]["chain"], f"ceremony {self.id}")

    @property
    def round_number(self) -> int:
        return int(self.transcript["beacon"]["round"])

    @property
    def reveals_close(self) -> datetime:
        return parse_time(self.transcript["beacon"]["reveals_close"], f"ceremony {self.id}")

    def refuse(self, message: str) -> CeremonyError:
        return CeremonyError(f"ceremony {self.id}: {message}")

    def index(self, name: str) -> int:
        if name not in self.names:
            raise self.refuse(f"no party {name!r} (the parties are {', '.join(self.names)})")
        return self.names.index(name)

    def public_key(self, name: str) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(
            bytes.fromhex(self.transcript["parties"][self.index(name)]["public_key"]))

    def party_of(self, key: Ed25519PrivateKey) -> str:
        """The party whose listed key `key` is the private half of (no two parties share a key)."""
        mine = raw_key(key.public_key())
        for p in self.transcript["parties"]:
            if p["public_key"] == mine:
                return str(p["name"])
        raise self.refuse(f"key {key_fingerprint(mine)} is no party's key in the ceremony (the parties "
                          f"are {', '.join(self.names)})")

    def check_key(self, name: str, key: Ed25519PrivateKey) -> None:
        """`key` is the private half of `name`'s listed key."""
        mine, listed = raw_key(key.public_key()), self.transcript["parties"][self.index(name)]["public_key"]
        if mine != listed:
            raise self.refuse(f"party {name!r}: key {key_fingerprint(mine)} is not its key in the ceremony "
                              f"({key_fingerprint(listed)})")

    def _signed(self, name: str, what: str, signature: str, message: bytes) -> None:
        try:
            self.public_key(name).verify(bytes.fromhex(signature), message)
        except (InvalidSignature, ValueError):
            raise self.refuse(f"party {name!r}: the {what}'s signature is not by its listed key") from None

    def check_signatures(self) -> None:
        """Every commitment, reveal and abort in the file is signed by its party's listed key."""
        for c in self.commitments:
            if c is not None:
                self._signed(c["name"], "commitment", c["signature"],
                             tx.commit_message(self.transcript_sha256, c["name"], c["commitment"]))
        if any(r is not None for r in self.reveals):
            closed = self.closed()
            for r in self.reveals:
                if r is not None:
                    self._signed(r["name"], "reveal", r["signature"], tx.reveal_message(
                        closed, r["name"], bytes.fromhex(r["value"]), r["revealed_at"]))
        if self.abort is not None:
            self._signed(self.abort["name"], "abort", self.abort["signature"],
                         tx.abort_message(self.transcript_sha256, self.abort["name"], self.abort["reason"]))

    def check_open(self) -> None:
        if self.abort is not None:
            raise self.refuse(f"aborted by {self.abort['name']} ({self.abort['reason']}); start a new "
                              "ceremony")

    def waiting_to_commit(self) -> list[str]:
        return [n for n, c in zip(self.names, self.commitments, strict=True) if c is None]

    def waiting_to_reveal(self) -> list[str]:
        return [n for n, r in zip(self.names, self.reveals, strict=True) if r is None]

    def closed(self) -> str:
        """The hash of the closed commitments; refused while one is missing."""
        waiting = self.waiting_to_commit()
        if waiting:
            raise self.refuse(f"commitments are not all in (waiting for {', '.join(waiting)}); every party "
                              "commits before anyone reveals")
        return tx.commitments_hash(self.transcript_sha256,
                                   [(c["name"], c["commitment"]) for c in self.commitments if c is not None])

    # ---- steps ---------------------------------------------------------------------------------

    def commit(self, name: str, key: Ed25519PrivateKey, value: bytes, now: datetime) -> bool:
        """Record `name`'s signed commitment to `value`, before reveals close; True if it was the last."""
        self.check_open()
        i = self.index(name)
        self.check_key(name, key)
        if self.commitments[i] is not None:
            raise self.refuse(f"party {name!r} has already committed; a commitment is never replaced")
        if now >= self.reveals_close:  # every reveal waits for it, and none is taken after the close
            raise self.refuse(f"reveals closed at {utc_text(self.reveals_close)}; a commitment now could "
                              "never be revealed in time (abort the ceremony)")
        c = tx.commitment(self.transcript_sha256, name, value)
        signature = key.sign(tx.commit_message(self.transcript_sha256, name, c)).hex()
        self.commitments[i] = {"name": name, "commitment": c, "signature": signature}
        return not self.waiting_to_commit()

    def reveal(self, name: str, key: Ed25519PrivateKey, value: bytes, now: datetime) -> None:
        """Record `name`'s signed reveal, before reveals close."""
        self.check_open()
        i = self.index(name)
        self.check_key(name, key)
        if self.sealed is not None:  # only a clock before the close gets here: a test clock, or one behind
            raise self.refuse("is sealed; its reveals are its record, never replaced")
        closed = self.closed()
        if now >= self.reveals_close:
            raise self.refuse(f"reveals closed at {utc_text(self.reveals_close)}; a late reveal could know "
                              "the beacon (abort the ceremony)")
        c = self.commitments[i]
        assert c is not None  # closed() found every commitment
        if tx.commitment(self.transcript_sha256, name, value) != c["commitment"]:
            raise self.refuse(f"party {name!r}: the revealed contribution does not match its commitment")
        when = utc_text(now)
        signature = key.sign(tx.reveal_message(closed, name, value, when)).hex()
        self.reveals[i] = {"name": name, "value": value.hex(), "revealed_at": when, "signature": signature}

    def unusable(self, i: int) -> str | None:
        """Why party i's reveal cannot enter the seed (None: it can): it is missing, was signed at or after
        the close, or does not open its commitment (a party's own code can sign such a reveal)."""
        name, r, c = self.names[i], self.reveals[i], self.commitments[i]
        if r is None:
            return f"no reveal from party {name!r}; every party reveals before the seed is sealed"
        if parse_time(r["revealed_at"], f"ceremony {self.id}") >= self.reveals_close:
            return (f"party {name!r} revealed at {r['revealed_at']}, after reveals closed at "
                    f"{utc_text(self.reveals_close)}")
        value = bytes.fromhex(r["value"])
        if c is None or c["commitment"] != tx.commitment(self.transcript_sha256, name, value):
            return f"party {name!r}: the revealed contribution does not match its commitment"
        return None

    def abort_by(self, name: str, key: Ed25519PrivateKey, reason: str) -> None:
        self.check_open()
        self.check_key(name, key)
        if self.sealed is not None:
            raise self.refuse("is sealed; a sealed ceremony is not aborted")
        try:  # only a reveal missing, or one that cannot enter the seed, makes an abort blind
            blind = any(self.unusable(i) for i in range(len(self.names)))
        except CeremonyError:  # a revealed_at no poolgen writes, signed by a party's own code
            blind = True
        if not blind:
            raise self.refuse(f"every party has revealed: round {self.round_number} fixes the seed and "
                              "nobody can stop it; an abort now could follow a look at the seed (seal it)")
        # isprintable first: a lone surrogate (a byte that is not UTF-8, as the shell passes it) is not
        # printable, and encode() raises on it
        if not reason.strip() or not reason.isprintable() or len(reason.encode()) > MAX_TEXT:
            raise self.refuse(f"an abort's reason is 1 to {MAX_TEXT} bytes of printable text on one line, "
                              "not blank")  # a control character could hide lines of a report on a terminal
        signature = key.sign(tx.abort_message(self.transcript_sha256, name, reason)).hex()
        self.abort = {"name": name, "reason": reason, "signature": signature}

    def seed(self, beacon: Round) -> bytes:
        """The seed from every reveal and the named round, after checking each of them again."""
        self.check_open()
        closed = self.closed()
        for i in range(len(self.names)):
            if (why := self.unusable(i)) is not None:
                raise self.refuse(why)
        values = [(r["name"], bytes.fromhex(r["value"])) for r in self.reveals if r is not None]
        if beacon.round != self.round_number:
            raise self.refuse(f"round {beacon.round} is not the ceremony's round {self.round_number}")
        return tx.seed(closed, values, beacon.round, beacon.randomness)

    def seal(self, beacon: Round) -> bytes:
        seed = self.seed(beacon)
        self.round, self.sealed = beacon.to_json(), seed_commitment(seed)
        return seed

    def sealed_seed(self) -> bytes:
        """The seed of a sealed ceremony, derived again (for `generate --ceremony`)."""
        if self.sealed is None or self.round is None:
            self.check_open()
            raise self.refuse("not sealed yet (poolgen ceremony seal)")
        seed = self.seed(Round(int(self.round["round"]), self.round["signature"], self.round["randomness"]))
        if seed_commitment(seed) != self.sealed:
            raise self.refuse("the reveals do not give the seed that was sealed")
        return seed

    def check_binding(self, b: Binding) -> None:
        """`generate` may use the seed only for the run the transcript binds, once."""
        t = self.transcript
        if self.run is not None:
            raise self.refuse(f"has already seeded run {self.run}; a ceremony seeds one run")
        if b.game != t["game"]:
            raise self.refuse(f"game {b.game} is not the ceremony's ({t['game']})")
        if list(b.pools) != t["pools"]:
            raise self.refuse(f"pools {', '.join(b.pools)} are not the ceremony's ({', '.join(t['pools'])})")
        if b.spec_sha256 != t["spec_sha256"]:
            raise self.refuse(f"the spec's SHA-256 is {b.spec_sha256[:16]}..., the ceremony bound "
                              f"{t['spec_sha256'][:16]}... (re-ordered or edited after the ceremony began?)")
        if b.code_sha256 != t["code_sha256"]:
            raise self.refuse(f"the code's SHA-256 is {b.code_sha256[:16]}..., not the ceremony's "
                              f"{t['code_sha256'][:16]}... (another poolgen)")
        if b.run_id != t["run_id"]:
            raise self.refuse(f"run id {b.run_id} is not the ceremony's ({t['run_id']})")
        if "printed" in t and b.printed != (t["printed"]["number"], t["printed"]["regulation"]):
            raise self.refuse(f"the spec's printed game is {printed_text(b.printed)}, not the ceremony's "
                              f"({printed_text((t['printed']['number'], t['printed']['regulation']))})")
        bound = t.get("book_key_check")
        if bound is None and b.book_key_check is not None:
            raise self.refuse("bound no book key; one made after the seed could choose the printed books of "
                              "the top prizes (bind its check value: ceremony new --book-key-check)")
        if bound is not None and b.book_key_check != bound:
            raise self.refuse(f"bound book key check {bound}; give that book key (--book-key), not "
                              f"{b.book_key_check or 'none'}")

    # ---- documents -----------------------------------------------------------------------------

    def manifest_entry(self) -> dict[str, Any]:
        """What the run's manifest records (no secret: the reveals stay in the ceremony file)."""
        return {"format": FORMAT, "algorithm": ALGORITHM, "transcript": self.transcript,
                "transcript_sha256": self.transcript_sha256, "commitments": self.commitments,
                "commitments_sha256": self.closed(), "round": self.round}

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "transcript": self.transcript, "transcript_sha256": self.transcript_sha256,
                "commitments": self.commitments, "reveals": self.reveals, "round": self.round,
                "seed_commitment": self.sealed, "run": self.run, "abort": self.abort}

    def public_json(self) -> dict[str, Any]:
        """The pre-sale bundle: everything but the reveals."""
        doc = self.to_json()
        del doc["reveals"]
        return doc


def printed_text(printed: tuple[int | None, str] | None) -> str:
    """A printed game as messages name it: `game 358 of K.A.R. 111-4-3762` (`... of none` unbound)."""
    if printed is None:
        return "none"
    return ("" if printed[0] is None else f"game {printed[0]} of ") + printed[1]
