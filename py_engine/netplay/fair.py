"""Fair dealing without a trusted host: commit, reveal, derive the deal's seed.

Every contributor (the host, who also speaks for the computer seats, and every connected friend)
draws a random value and first sends only its hash. When the host has all the hashes it sends
them to every friend; each friend checks its own is there, unchanged, and only then sends its
value (to the host alone: a value known to all would let anyone compute every hand). The deal's
seed is a hash of all the values. At the deal's end the host sends the values with the record;
each friend checks every value against the hash it saw and replays the deal.

>>> v = "0" * 32
>>> commitment(v) == commitment(v), len(commitment(v))
(True, 64)
>>> derive_seed(1, {"host": v, "2": "1" * 32}) == derive_seed(1, {"2": "1" * 32, "host": v})
True
"""

from __future__ import annotations

import hashlib
import secrets

from .messages import PROTOCOL

VALUE_HEX = 32  # 128 random bits
HASH_HEX = 64


def new_value() -> str:
    return secrets.token_hex(VALUE_HEX // 2)


def commitment(value: str) -> str:
    return hashlib.sha256(f"{PROTOCOL}|commit|{value}".encode()).hexdigest()


def derive_seed(deal: int, values: dict[str, str]) -> str:
    """The deal's seed text from every contributor's value (order-independent)."""
    body = "|".join(f"{k}={values[k]}" for k in sorted(values))
    return hashlib.sha256(f"{PROTOCOL}|deal {deal}|{body}".encode()).hexdigest()
