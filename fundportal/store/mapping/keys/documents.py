"""Keys of documents and their items: the base table, the entity, position, month and
document-position indexes, and the document audit trail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from fundportal.domain.kinds import Kind, parse_month, validate_id

from .parts import _HIGH, AUDIT_PREFIX, LATEST, METADATA, MONTH_CATALOG_PK, MONTH_SHARD_PREFIX, SEP, _join

# --- base table ---------------------------------------------------------------------------


def document_pk(document_id: str) -> str:
    return validate_id(document_id, "document id")


def latest_sk(kind: Kind) -> str:
    """SK of the current copy of a versioned kind: DOCUMENT#LATEST, CAPITAL_ACTIVITY#LATEST."""
    return _join(kind.value, LATEST)


def historical_sk(kind: Kind, on: date, revision: int | None = None) -> str:
    """SK of a superseded copy: DOCUMENT#2025-09-01, or DOCUMENT#2025-09-01#000002.

    The revision suffix lets two restatements on one day both survive; it sorts after the
    bare date, so date-range queries (see `history_range`) still find it.
    """
    sk = _join(kind.value, on.isoformat())
    if revision is not None:
        sk = _join(sk, f"{revision:06d}")
    return sk


def entry_sk(kind: Kind, position_id: str) -> str:
    """SK of a position entry: CAPITAL_CALL#POSITION_1."""
    if not kind.is_position_entry:
        raise ValueError(f"{kind} is not a position entry")
    return _join(kind.value, validate_id(position_id, "position id"))


def history_range(kind: Kind, start: date | None, end: date | None) -> tuple[str, str]:
    """Inclusive SK bounds for superseded copies between two dates (either may be open)."""
    # Open bounds bracket every ISO date ('0001-...' to '9999-...'): '0' <= any digit < ':'
    # (0x3A) < 'L', so the current copy (<KIND>#LATEST) is never inside the range.
    lo = _join(kind.value, start.isoformat()) if start else _join(kind.value, "0")
    hi = _join(kind.value, end.isoformat()) + _HIGH if end else _join(kind.value, ":")
    return lo, hi


@dataclass(frozen=True, slots=True)
class ParsedSK:
    kind: Kind
    latest: bool = False
    position_id: str | None = None
    version_date: date | None = None
    revision: int | None = None


def parse_sk(sk: str) -> ParsedSK:
    """Parse any base-table SK built by this module."""
    head, _, rest = sk.partition(SEP)
    try:
        kind = Kind(head)
    except ValueError:
        raise ValueError(f"not an entity sort key: {sk!r}") from None
    if kind.is_position_entry:
        return ParsedSK(kind, latest=True, position_id=rest)
    if rest == LATEST:
        return ParsedSK(kind, latest=True)
    day, _, rev = rest.partition(SEP)
    return ParsedSK(kind, version_date=date.fromisoformat(day), revision=int(rev) if rev else None)


# --- GSI_Entity_Document --------------------------------------------------------------------


def entity_index_keys(kind: Kind, document_id: str, position_id: str | None = None) -> tuple[str, str]:
    """(GSI_PK, GSI_SK) for current documents and position entries."""
    if kind is Kind.DOCUMENT:
        return _join(kind.value, LATEST, validate_id(document_id, "document id")), METADATA
    if kind.is_position_entry:
        return (
            _join(kind.value, validate_id(position_id, "position id"), validate_id(document_id, "document id")),
            LATEST,
        )
    raise ValueError(f"{kind} has no entity-index key")


def parse_entity_index_pk(gsi_pk: str) -> tuple[Kind, str | None, str]:
    """(kind, position id or None, document id) of a GSI_PK built by `entity_index_keys`."""
    parts = gsi_pk.split(SEP)
    kind = Kind(parts[0])
    if kind is Kind.DOCUMENT and len(parts) == 3 and parts[1] == LATEST:
        return kind, None, parts[2]
    if kind.is_position_entry and len(parts) == 3:
        return kind, parts[1], parts[2]
    raise ValueError(f"not an entity-index key: {gsi_pk!r}")


# --- GSI_Position_Document ------------------------------------------------------------------


def position_index_keys(kind: Kind, position_id: str, document_id: str) -> tuple[str, str]:
    """(GSI2_PK, GSI2_SK) = (POSITION_1, CAPITAL_CALL#DOC001)."""
    return validate_id(position_id, "position id"), _join(kind.value, validate_id(document_id, "document id"))


def position_index_pk(position_id: str) -> str:
    return validate_id(position_id, "position id")


def parse_position_index_sk(gsi2_sk: str) -> tuple[Kind, str]:
    head, _, document_id = gsi2_sk.partition(SEP)
    return Kind(head), document_id


# --- month-sharded sparse index of current documents ----------------------------------------


def month_shard(as_of: date) -> str:
    """GSI3_PK: LATEST_DOCS#2025-09 (the seed's time-sharded pattern)."""
    return _join(MONTH_SHARD_PREFIX, _month(as_of))


def _month(as_of: date) -> str:
    # Not f"{as_of:%Y-%m}": strftime does not zero-pad years below 1000 on glibc.
    return f"{as_of.year:04d}-{as_of.month:02d}"


def month_index_keys(as_of: date, document_id: str) -> tuple[str, str]:
    return month_shard(as_of), _join(as_of.isoformat(), validate_id(document_id, "document id"))


def parse_month_index_sk(gsi3_sk: str) -> tuple[date, str]:
    """(as-of date, document id) of a GSI3_SK built by `month_index_keys`."""
    day, _, document_id = gsi3_sk.partition(SEP)
    return date.fromisoformat(day), document_id


def month_index_range(lower: date | None, upper: date | None) -> tuple[str, str]:
    """Inclusive GSI3_SK bounds for as-of dates in [lower, upper] (either may be open): '0' and
    '~' bracket every date, and '#~' after a date sorts above every document id of that day."""
    return (lower.isoformat() if lower else "0", _join(upper.isoformat(), _HIGH) if upper else _HIGH)


def parse_month_shard(gsi3_pk: str) -> tuple[int, int]:
    """(year, month) of a GSI3_PK built by `month_shard`."""
    prefix, _, month = gsi3_pk.partition(SEP)
    if prefix != MONTH_SHARD_PREFIX:
        raise ValueError(f"not a month shard: {gsi3_pk!r}")
    return parse_month(month)


def month_catalog_keys(as_of: date) -> tuple[str, str]:
    """The tiny catalog of months that have documents: PK=CATALOG#MONTHS, SK=2025-09."""
    return MONTH_CATALOG_PK, _month(as_of)


# --- audit trail ----------------------------------------------------------------------------


def audit_pk(document_id: str) -> str:
    """Audit items live beside, not inside, the document partition (keeps the overview lean)."""
    return _join(AUDIT_PREFIX, validate_id(document_id, "document id"))


def audit_sk(at_iso: str, token: str) -> str:
    return _join(at_iso, token)


def parse_audit_sk(sk: str) -> tuple[str, str]:
    """(ISO timestamp, token) of an audit item's SK."""
    at_iso, _, token = sk.rpartition(SEP)
    return at_iso, token


# --- GSI_Document_Position: a document's current items grouped by position -------------------
#   Document, current        GSI5_PK=DOC001 / GSI5_SK=!DOCUMENT
#   CapitalActivity, current GSI5_PK=DOC001 / GSI5_SK=!CAPITAL_ACTIVITY
#   Position entry           GSI5_PK=DOC001 / GSI5_SK=POSITION_1#CAPITAL_CALL
# '!' (0x21) sorts before every id character, so the two headers come first; '#' (0x23) sorts
# below every id character, so a position's entries sit together, before any longer id
# (POSITION_1#... < POSITION_10#...). Superseded copies are not in it (sparse).
DOCUMENT_HEADER_MARK = "!"
# GSI5_SK bounds of the entries only: above the headers, below '~' (above every id character).
DOCUMENT_ENTRIES_LOW = SEP
DOCUMENT_ENTRIES_HIGH = _HIGH


def document_index_keys(kind: Kind, document_id: str, position_id: str | None = None) -> tuple[str, str]:
    """(GSI5_PK, GSI5_SK) of a current document, capital activity or position entry."""
    pk = validate_id(document_id, "document id")
    if kind.is_position_entry:
        return pk, _join(validate_id(position_id or "", "position id"), kind.value)
    return pk, DOCUMENT_HEADER_MARK + kind.value


def document_index_after(position_id: str) -> str:
    """A GSI5_SK above every entry of `position_id` and below the next position's."""
    return _join(validate_id(position_id, "position id"), _HIGH)


def document_index_before(position_id: str) -> str:
    """A GSI5_SK below every entry of `position_id` and above the previous position's."""
    return validate_id(position_id, "position id") + SEP
