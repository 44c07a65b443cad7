"""A printed ticket named two ways (docs/back-office.md, section 1): its 15-digit barcode number
`GGGBBBBBBBTTTCC` (16 digits `GGGGBBBBBBBTTTCC` for a game numbered 1000..9999), or its printed ticket
id `GGG-BBBBBBB-TTT` (`GGGG-BBBBBBB-TTT`; the pool file's `ticket`); and its
validation number. Only ASCII digits are digits here: Arabic-Indic, full-width, superscript or any
other Unicode digit, a sign, a space or a newline is refused in one line (exit 2)."""

from __future__ import annotations

import getpass
import re
import socket
from dataclasses import dataclass

from poolgen.backoffice.errors import BackOfficeError, shown
from poolgen.deliverables.identity import (
    GAME_PATTERN,
    barcode_fields,
    check_digits,
    is_barcode_text,
    is_valid,
)

_DASHED = re.compile(rf"({GAME_PATTERN})-([0-9]{{7}})-([0-9]{{3}})", re.ASCII)
_VIRN = re.compile(r"[0-9]{1,32}", re.ASCII)


@dataclass(frozen=True)
class Ticket:
    """A ticket as presented: its barcode number (check digits as printed: they may fail)."""

    barcode: str

    @property
    def ticket_id(self) -> str:
        """The printed ticket id GGG-BBBBBBB-TTT (GGGG-BBBBBBB-TTT for a game numbered 1000..9999)."""
        return "-".join(barcode_fields(self.barcode)[:3])

    @property
    def check_digits_hold(self) -> bool:
        return is_valid(self.barcode)


def parse_ticket(text: str) -> Ticket:
    """A barcode number or a printed ticket id (whose check digits are computed); anything else a
    BackOfficeError."""
    if is_barcode_text(text):
        return Ticket(text)
    m = _DASHED.fullmatch(text)
    if m:
        data = "".join(m.groups())
        return Ticket(data + check_digits(data))
    raise BackOfficeError(f"ticket {shown(text)}: not a barcode number (15 digits; 16 for a game numbered "
                          "1000..9999) nor a ticket id GGG-BBBBBBB-TTT (ASCII digits only)")


def parse_virn(text: str) -> str:
    """A validation number: 1 to 32 ASCII digits; its length is checked by the claim itself."""
    if not _VIRN.fullmatch(text):
        raise BackOfficeError(f"validation number {shown(text)}: not a validation number "
                              "(1 to 32 ASCII digits)")
    return text


def parse_id(text: str, what: str) -> str:
    """A desk, clerk, channel or player reference: 1 to 64 printable ASCII characters, no spaces."""
    if not re.fullmatch(r"[!-~]{1,64}", text, re.ASCII):
        raise BackOfficeError(f"{what} {shown(text)}: not an id (1 to 64 printable ASCII characters, "
                              "no spaces)")
    return text


UNKNOWN = "unknown"  # a default the system cannot give as an id: "desk unknown, clerk unknown"


def _as_id(text: str) -> str:
    return text if re.fullmatch(r"[!-~]{1,64}", text, re.ASCII) else UNKNOWN


def default_desk() -> str:
    """A desk not named (--desk): this computer's host name, as the ledger records and the desk says it
    ("paid ... at desk lotto-3, clerk ann"); `unknown` if that is not an id (docs/back-office.md)."""
    try:
        return _as_id(socket.gethostname())
    except OSError:
        return UNKNOWN


def default_clerk() -> str:
    """A clerk not named (--clerk): the login name of the user running the command; `unknown` if there is
    none or it is not an id."""
    try:
        return _as_id(getpass.getuser())
    except (OSError, KeyError):  # no LOGNAME, USER, LNAME, USERNAME, and no password entry
        return UNKNOWN
