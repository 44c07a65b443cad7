"""The pallet and ship files (poolgen/deliverables/printer.py `shipment`), byte for byte, from a
print-sequence.csv and cartons.csv written here: pallets of consecutive cartons in the order's
numbering, first and last pack and barcode of each, the totals, and SHA-256 sums `sha256sum -c` reads."""

from __future__ import annotations

import hashlib

import pytest

from poolgen.deliverables.printer import SHIP_FILES, shipment
from poolgen.errors import RunError

# Five packs of 300 (game 465), 2 packs a carton: cartons 1, 1, 2, 2, 3.
SEQUENCE = (b"sequence,game,book,first_barcode,last_barcode,tickets,carton\n"
            b"1,465,3,465000000300032,465000000329977,300,1\n"
            b"2,465,0,465000000000051,465000000029996,300,1\n"
            b"3,465,4,465000000400025,465000000429970,300,2\n"
            b"4,465,1,465000000100044,465000000129989,300,2\n"
            b"5,465,2,465000000200037,465000000229982,300,3\n")
CARTONS = (b"carton,first_sequence,last_sequence,packs,tickets,books\n"
           b"1,1,2,2,600,3 0\n2,3,4,2,600,4 1\n3,5,5,1,300,2\n")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_pallets_totals_and_sums_byte_for_byte():
    files = shipment(SEQUENCE, CARTONS, packs_per_carton=2, cartons_per_pallet=2)
    assert list(files) == list(SHIP_FILES)
    assert files["print-sequence.csv"] == SEQUENCE and files["cartons.csv"] == CARTONS
    pallets = (b"pallet,first_carton,last_carton,cartons,first_sequence,last_sequence,packs,first_barcode,"
               b"last_barcode,tickets\n"
               b"1,1,2,2,1,4,4,465000000300032,465000000129989,1200\n"
               b"2,3,3,1,5,5,1,465000000200037,465000000229982,300\n")
    assert files["pallets.csv"] == pallets
    assert files["shipment.csv"] == (
        b"game,packs,tickets,cartons,pallets,packs_per_carton,cartons_per_pallet,first_sequence,"
        b"last_sequence,print_sequence_sha256,cartons_sha256,pallets_sha256\n"
        + f"465,5,1500,3,2,2,2,1,5,{_sha(SEQUENCE)},{_sha(CARTONS)},{_sha(pallets)}\n".encode())
    assert files["SHA256SUMS"] == "".join(f"{_sha(files[n])}  {n}\n" for n in SHIP_FILES[:4]).encode()


def test_a_run_of_later_pools_keeps_the_orders_carton_and_pallet_numbers():
    # a run holding only the order's packs 7 and 8 (cartons of 2: carton 4), 3 cartons a pallet: pallet 2
    sequence = (b"sequence,game,book,first_barcode,last_barcode,tickets,carton\n"
                b"7,465,5,465000000500018,465000000529963,300,4\n"
                b"8,465,6,465000000600011,465000000629956,300,4\n")
    files = shipment(sequence, b"", packs_per_carton=2, cartons_per_pallet=3)
    assert files["pallets.csv"].splitlines()[1:] == [b"2,4,4,1,7,8,2,465000000500018,465000000629956,600"]
    assert files["shipment.csv"].splitlines()[1].startswith(b"465,2,600,1,1,2,3,7,8,")


def test_one_pallet_when_it_holds_every_carton():
    files = shipment(SEQUENCE, CARTONS, packs_per_carton=2, cartons_per_pallet=40)
    assert files["pallets.csv"].splitlines()[1:] == [b"1,1,3,3,1,5,5,465000000300032,465000000229982,1500"]


def test_an_empty_print_sequence_is_refused():
    with pytest.raises(RunError, match="^print-sequence.csv lists no pack$"):
        shipment(b"sequence,game,book,first_barcode,last_barcode,tickets,carton\n", b"", 2, 2)
