"""Keys and attribute names of the write-sharded fund summaries."""

from __future__ import annotations

import zlib
from datetime import date

from fundportal.domain.kinds import validate_id

from .parts import SEP, _join

# --- fund summaries (write-sharded) --------------------------------------------------------
#   Fund summary shard  PK=FUND_SUMMARY#FUND_A#07  SK=SUMMARY: one of N items holding the
#                       fund's totals and dated flows; a position's share always goes to the
#                       shard its id hashes to (`summary_shard`), so N writers of one fund
#                       spread over N partitions. Attributes: `summary_attribute` per measure.
SUMMARY_PREFIX = "FUND_SUMMARY"
SUMMARY_SK = "SUMMARY"
SUMMARY_MEASURE_SEP = "|"  # inside a summary attribute name (never part of a key)


def summary_shard(position_id: str, shards: int) -> int:
    """The shard of a position's share in its fund's summary: a stable hash of the position id
    (CRC-32, the same on every machine and run) modulo the shard count."""
    return zlib.crc32(validate_id(position_id, "position id").encode()) % shards


def summary_keys(fund_id: str, shard: int) -> tuple[str, str]:
    """(PK, SK) of one shard of a fund's summary."""
    return _join(SUMMARY_PREFIX, validate_id(fund_id, "fund id"), f"{shard:02d}"), SUMMARY_SK


def parse_summary_pk(pk: str) -> tuple[str, int]:
    """(fund id, shard) of a summary shard's partition key."""
    prefix, fund_id, shard = pk.split(SEP)
    if prefix != SUMMARY_PREFIX:
        raise ValueError(f"not a fund summary key: {pk!r}")
    return fund_id, int(shard)


def summary_attribute(currency: str, what: str, on: date | None) -> str:
    """The attribute holding one measure of a summary: 'USD|called_settled', 'USD|call|2025-09-30'."""
    parts = (currency, what) if on is None else (currency, what, on.isoformat())
    return SUMMARY_MEASURE_SEP.join(parts)


def parse_summary_attribute(name: str) -> tuple[str, str, date | None] | None:
    """(currency, what, date or None) of a summary attribute; None for any other attribute."""
    parts = name.split(SUMMARY_MEASURE_SEP)
    if len(parts) == 2:
        return parts[0], parts[1], None
    if len(parts) == 3:
        return parts[0], parts[1], date.fromisoformat(parts[2])
    return None
