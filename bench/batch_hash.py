"""Would a compiled batch hasher make the Merkle leaves cheaper? (issue 28; docs/scaling.md, third pass)

    pip install datafusion            # not a poolgen dependency: this experiment only
    python bench/batch_hash.py        # 1,000,000 rows, about 20 s

A leaf of poolgen-merkle/v2 is SHA-256(0x00 || header || values): poolgen and audit hash 0x00 || header
once and continue a copy of that state per row (copy, update, digest: one OpenSSL call chain a row).
A batch hasher (here Apache DataFusion's `digest(column, 'sha256')`, Rust, over Arrow binary columns
of 65,536 rows) cannot continue a saved state, so it hashes each row's whole message. Measured on
random rows of Primetime Payout's widths (header 502 bytes with its prefix, values 344 bytes), then
on a 33-byte prefix standing for a format that would hash the header once into 32 bytes. CPU seconds
of this process; nothing is asserted.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from itertools import repeat

import numpy as np

try:
    import pyarrow as pa
    from datafusion import SessionConfig, SessionContext
except ImportError as exc:  # pragma: no cover - an experiment's own dependency
    raise SystemExit(f"bench/batch_hash.py needs datafusion (pip install datafusion): {exc}") from exc

ROWS, CHUNK = 1_000_000, 65_536


def hashlib_leaves(head: bytes, values: np.ndarray) -> bytes:
    """poolgen's way: the header's state copied per row, 2,048 rows at a time."""
    start = hashlib.sha256(head)
    kind = type(start)
    out = []
    for lo in range(0, len(values), 2048):
        rows = values[lo:lo + 2048]
        states = list(map(kind.copy, repeat(start, len(rows))))
        deque(map(kind.update, states, rows.view(f"V{rows.shape[1]}")[:, 0].tolist()), maxlen=0)
        out.append(b"".join(map(kind.digest, states)))
    return b"".join(out)


def datafusion_leaves(head: bytes, values: np.ndarray) -> bytes:
    """Each row's whole message (header || values) as an Arrow binary column, hashed by DataFusion."""
    ctx = SessionContext(SessionConfig().with_target_partitions(1).with_batch_size(CHUNK))
    prefix = np.frombuffer(head, np.uint8)
    out = []
    for lo in range(0, len(values), CHUNK):
        rows = values[lo:lo + CHUNK]
        m, w = len(rows), len(prefix) + rows.shape[1]
        messages = np.empty((m, w), np.uint8)
        messages[:, :len(prefix)] = prefix
        messages[:, len(prefix):] = rows
        offsets = np.arange(0, (m + 1) * w, w, dtype=np.int32)
        column = pa.BinaryArray.from_buffers(pa.binary(), m, [None, pa.py_buffer(offsets),
                                                               pa.py_buffer(messages.reshape(-1))])
        ctx.register_record_batches("t", [[pa.record_batch([column], names=["b"])]])
        table = ctx.sql("select digest(b, 'sha256') as h from t").to_arrow_table()
        digests = table.column("h").combine_chunks()
        ctx.deregister_table("t")
        out.append(np.frombuffer(digests.buffers()[2], np.uint8)[:m * 32].tobytes())
    return b"".join(out)


def main() -> None:
    values = np.frombuffer(hashlib.shake_256(b"poolgen/bench/batch-hash").digest(ROWS * 344),
                           np.uint8).reshape(ROWS, 344)  # any bytes do: the cost is per row and byte
    print(f"{ROWS:,} rows of 344 value bytes, CPU seconds")
    for label, head_bytes in (("v2: 0x00 || a 501-byte header, per row", 502),
                              ("a 33-byte prefix (a header hashed once)", 33)):
        head = b"\x00" + bytes(range(256)) * 2
        head = head[:head_bytes]
        t = time.process_time()
        ours = hashlib_leaves(head, values)
        t_ours = time.process_time() - t
        t = time.process_time()
        theirs = datafusion_leaves(head, values)
        t_theirs = time.process_time() - t
        assert ours == theirs, "the two hashers disagree"
        print(f"  {label:<44} hashlib, state copied {t_ours:5.2f} s   DataFusion digest {t_theirs:5.2f} s")


if __name__ == "__main__":
    main()
