"""The one key codec: every `#`-joined key string is built and parsed here.

Layout follows docs/DESIGN.md and the seed article
(docs/000_b2c4ef86bd8dfbd9.txt, "The Single Table Structure" and "GSI Design"):

    Document, current      PK=DOC001  SK=DOCUMENT#LATEST
    Document, superseded   PK=DOC001  SK=DOCUMENT#2025-09-01[#000002]
    CapitalActivity        PK=DOC001  SK=CAPITAL_ACTIVITY#LATEST | CAPITAL_ACTIVITY#<date>[#rev]
    Position entries       PK=DOC001  SK=CAPITAL_CALL#POSITION_1 (and DISTRIBUTION#, UNFUNDED_COMMITMENT#)
                           NAV# and the capital account's kinds: MANAGEMENT_FEE#, PARTNERSHIP_EXPENSE#,
                           REALIZED_GAIN#, UNREALIZED_GAIN#, CARRIED_INTEREST# (same partition,
                           same indexes: every Query that reads a document's or a position's
                           entries reads them too; none begins with CAPITAL_, pattern 4's prefix)
    GSI_Entity_Document    GSI_PK=DOCUMENT#LATEST#DOC001 / GSI_SK=METADATA
                           GSI_PK=CAPITAL_CALL#POSITION_1#DOC001 / GSI_SK=LATEST
    GSI_Position_Document  GSI2_PK=POSITION_1 / GSI2_SK=CAPITAL_CALL#DOC001
    GSI_Latest_By_Month    GSI3_PK=LATEST_DOCS#2025-09 / GSI3_SK=2025-09-30#DOC001

Ids never contain `#` (validated before any request by the domain's id rules,
`fundportal.domain.kinds.validate_id`), so a key built here can always be parsed back, and
partitions that are not documents (audit trail, month catalog) carry a `#` so they can never
collide with a document id.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import date

from fundportal.domain.kinds import (
    Kind,
    SearchKind,
    normalise_search,
    parse_month,
    validate_checksum,
    validate_id,
    validate_marker,
)

SEP = "#"
LATEST = "LATEST"
METADATA = "METADATA"
MONTH_SHARD_PREFIX = "LATEST_DOCS"
AUDIT_PREFIX = "AUDIT"
MONTH_CATALOG_PK = "CATALOG#MONTHS"
# Sorts above every date/revision suffix: '~' (0x7E) > '#' (0x23) > digits.
_HIGH = "~"


def kind_prefix(kind: Kind) -> str:
    """The `begins_with` prefix of a kind's sort keys, delimiter included: 'CAPITAL_CALL#'."""
    return kind.value + SEP


# All capital items of a document (pattern 4): CAPITAL_ACTIVITY#... and CAPITAL_CALL#...
CAPITAL_PREFIX = "CAPITAL_"


def _join(*parts: str) -> str:
    return SEP.join(parts)


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


# --- entry versions (every LP amount versioned) ---------------------------------------
#   EntryVersion  PK=HIST#DOC001  SK=CAPITAL_CALL#POSITION_1#<replaced at, ISO>#000002
# A partition of its own beside the document's: the seed's queries (PK = DOC001, the entity and
# position indexes) never see it, and no index key is set on it.

HISTORY_PREFIX = "HIST"


def entry_history_pk(document_id: str) -> str:
    return _join(HISTORY_PREFIX, validate_id(document_id, "document id"))


def entry_history_sk(kind: Kind, position_id: str, replaced_at_iso: str, revision: int) -> str:
    """The kept value of an entry, sorted by entry and then by when it was replaced; the revision
    the value had tells apart two replacements in one second."""
    return _join(entry_sk(kind, position_id), replaced_at_iso, f"{revision:06d}")


def parse_entry_history_sk(sk: str) -> tuple[Kind, str, str, int]:
    """(kind, position id, replaced-at ISO timestamp, revision) of an entry version's SK."""
    kind, position_id, replaced_at_iso, revision = sk.split(SEP)
    return Kind(kind), position_id, replaced_at_iso, int(revision)


def parse_entry_history_pk(pk: str) -> str:
    """The document id of an entry version's PK."""
    prefix, _, document_id = pk.partition(SEP)
    if prefix != HISTORY_PREFIX or not document_id:
        raise ValueError(f"not an entry-history key: {pk!r}")
    return document_id


# A position's kept values, one Query (known_at on the position page): a sparse companion
# partition on GSI_Position_Document that no position's own partition (GSI2_PK=POSITION_1) shares.
#   EntryVersion  GSI2_PK=HIST#POSITION_1 / GSI2_SK=DOC001#CAPITAL_CALL#<replaced at, ISO>#000002#R
# The last part: R (the value was removed) or C (changed); the index does not project Removed.
_REMOVED, _CHANGED = "R", "C"


def entry_history_position_pk(position_id: str) -> str:
    return _join(HISTORY_PREFIX, validate_id(position_id, "position id"))


def entry_history_position_keys(
    position_id: str, document_id: str, kind: Kind, replaced_at_iso: str, revision: int, removed: bool
) -> tuple[str, str]:
    """(GSI2_PK, GSI2_SK) of an entry version: its position's history partition."""
    sk = _join(document_id, kind.value, replaced_at_iso, f"{revision:06d}", _REMOVED if removed else _CHANGED)
    return entry_history_position_pk(position_id), sk


def parse_entry_history_position_removed(gsi2_sk: str) -> bool:
    """Whether the entry version whose GSI2_SK this is kept a removed value."""
    return gsi2_sk.rsplit(SEP, 1)[-1] == _REMOVED


# --- search keys (case-insensitive id search without a Scan) -----------------------

SEARCH_PREFIX = "SEARCH"
# The search partition is the first SEARCH_SHARD_CHARS characters of the lower-cased id: a
# prefix query of at least that many characters is one Query on one partition.
SEARCH_SHARD_CHARS = 3


def search_shard(text: str) -> str:
    """PK of the search partition holding ids that start with `text` (already normalised)."""
    return _join(SEARCH_PREFIX, text[:SEARCH_SHARD_CHARS])


def search_keys(kind: SearchKind, target_id: str) -> tuple[str, str]:
    """(PK, SK) of the search item of an id: SEARCH#doc / doc001#document#DOC001.
    The SK starts with the lower-cased id, so `begins_with(SK, query)` is a prefix search and
    an exact match sorts first ('#' sorts below every id character)."""
    validate_id(target_id, f"{kind.value} id")
    normal = normalise_search(target_id)
    return search_shard(normal), _join(normal, kind.value, target_id)


def parse_search_sk(sk: str) -> tuple[SearchKind, str]:
    """(kind, id in its own case) of a search item's SK."""
    _normal, kind, target_id = sk.split(SEP)
    return SearchKind(kind), target_id


# --- position register -------------------------------------------------------------
#   Register             PK=POSITION#POSITION_1  SK=REGISTER
#                        GSI6_PK=FUND#FUND_A / GSI6_SK=POSITION#POSITION_1      (fund page, slim copy)
#                        GSI2_PK=POSITION_1 / GSI2_SK=!REGISTER                  (first in the position page)
#                        GSI4_PK=INVESTOR#INVESTOR_1 / GSI4_SK=POSITION#POSITION_1 (investor page)
#   Funds catalog        PK=CATALOG#FUNDS  SK=FUND_A  (written when a fund's first position registers)
#   Position audit       PK=AUDIT#POSITION#POSITION_1  SK=<at>#<token>  (commitment changes)
# One partition per position: writes to different positions of one fund never touch one item.

POSITION_PREFIX = "POSITION"
FUND_PREFIX = "FUND"
INVESTOR_PREFIX = "INVESTOR"
REGISTER = "REGISTER"
FUND_CATALOG_PK = "CATALOG#FUNDS"
# '!' (0x21) sorts before every kind prefix, so the register is the first item of the position's
# partition in GSI_Position_Document, and no kind filter (begins_with 'CAPITAL_CALL#') matches it.
REGISTER_POSITION_INDEX_SK = "!" + REGISTER


def register_pk(position_id: str) -> str:
    return _join(POSITION_PREFIX, validate_id(position_id, "position id"))


def register_sk() -> str:
    return REGISTER


def legacy_investor_copy_sk() -> str:
    """SK of the item that held a register's investor keys before the investor index (REGISTER#INVESTOR):
    `verify_positions --repair` deletes those left in older tables."""
    return _join(REGISTER, INVESTOR_PREFIX)


def parse_register_pk(pk: str) -> str:
    """The position id of a register partition key."""
    prefix, _, position_id = pk.partition(SEP)
    if prefix != POSITION_PREFIX or not position_id:
        raise ValueError(f"not a register key: {pk!r}")
    return position_id


def fund_page_index_keys(fund_id: str, position_id: str) -> tuple[str, str]:
    """(GSI6_PK, GSI6_SK) of a register: its slim copy on the fund page's index, the one index
    that lists a fund's positions (registers carry no GSI_PK)."""
    return fund_index_pk(fund_id), register_pk(position_id)


def fund_index_pk(fund_id: str) -> str:
    return _join(FUND_PREFIX, validate_id(fund_id, "fund id"))


def investor_index_keys(investor_id: str, position_id: str) -> tuple[str, str]:
    """(GSI4_PK, GSI4_SK) of a register: the LP's positions, one Query on the investor index."""
    return investor_index_pk(investor_id), register_pk(position_id)


def investor_index_pk(investor_id: str) -> str:
    return _join(INVESTOR_PREFIX, validate_id(investor_id, "investor id"))


def register_position_index_keys(position_id: str) -> tuple[str, str]:
    """(GSI2_PK, GSI2_SK) of a register item: sorted first in the position's index partition."""
    return position_index_pk(position_id), REGISTER_POSITION_INDEX_SK


def fund_catalog_keys(fund_id: str) -> tuple[str, str]:
    return FUND_CATALOG_PK, validate_id(fund_id, "fund id")


def position_audit_pk(position_id: str) -> str:
    """Audit items of position-level writes (commitment): beside the register, not in it."""
    return _join(AUDIT_PREFIX, POSITION_PREFIX, validate_id(position_id, "position id"))


def parse_position_audit_pk(pk: str) -> str | None:
    """The position id of a position's audit partition key; None for a document's trail."""
    prefix = _join(AUDIT_PREFIX, POSITION_PREFIX, "")
    return pk[len(prefix) :] if pk.startswith(prefix) else None


# --- notice imports ----------------------------------------------------------------
#   Import record  PK=IMPORT#<sha256 of the file> SK=IMPORT: written by the transaction that
#                  publishes the import (never before): a re-run of the same file writes nothing.
#   Import run     PK=IMPORT_RUN#<marker> SK=RUN (marker: `fundportal.domain.kinds.import_marker`): written
#                  before the first entry (time, user, new documents: every run stamps the same),
#                  marked Published on publishing. A register lists the markers of the imports
#                  whose new-document entries it counts until they are published.
#   Publishing part PK=IMPORT_RUN#<marker> SK=PART#<nnn>: a file too large to publish in one
#                  transaction publishes in parts; each part's transaction puts its item (NEW), so
#                  a re-run knows the parts done and a concurrent run never publishes one twice.

IMPORT_PREFIX = "IMPORT"
IMPORT_RUN_PREFIX = "IMPORT_RUN"
IMPORT_RUN_SK = "RUN"
IMPORT_PART_PREFIX = "PART"


def import_record_keys(checksum: str) -> tuple[str, str]:
    """(PK, SK) of the record of a completed import of the file with this sha256."""
    return _join(IMPORT_PREFIX, validate_checksum(checksum)), IMPORT_PREFIX


def import_run_keys(marker: str) -> tuple[str, str]:
    """(PK, SK) of the run record of the import with this marker."""
    return _join(IMPORT_RUN_PREFIX, validate_marker(marker)), IMPORT_RUN_SK


def import_part_keys(marker: str, part: int) -> tuple[str, str]:
    """(PK, SK) of the item a publishing part of the import with this marker puts (beside its run)."""
    if part < 0:
        raise ValueError("a publishing part is numbered from 0")
    return _join(IMPORT_RUN_PREFIX, validate_marker(marker)), _join(IMPORT_PART_PREFIX, f"{part:03d}")


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


# --- fund and investor records -----------------------------------------------------
#   Fund record      PK=FUND#FUND_A  SK=RECORD  (no index copy: the fund page reads it in the
#                    BatchGetItem of its summary shards, `fund_record_keys`)
#   Investor record  PK=INVESTOR#INVESTOR_1  SK=RECORD
#                    GSI4_PK=INVESTOR#INVESTOR_1 / GSI4_SK=!RECORD (first in the investor page's Query)
#   Record audit     PK=AUDIT#FUND#FUND_A (AUDIT#INVESTOR#...)  SK=<at>#<token>
#   Name search      PK=SEARCH#<first 3 characters of the term>  SK=<term>#fund#FUND_A: a term is
#                    the normalised name, or the name from a later word on (words only, so no '#')
# No seed item has a FUND# or INVESTOR# partition key; '!' (0x21) sorts the investor record before
# every register's index sort key (POSITION#...), so the investor page's Query reads it first and
# no request more.

RECORD = "RECORD"
RECORD_INDEX_SK = "!" + RECORD


def fund_record_keys(fund_id: str) -> tuple[str, str]:
    return _join(FUND_PREFIX, validate_id(fund_id, "fund id")), RECORD


def investor_record_keys(investor_id: str) -> tuple[str, str]:
    return _join(INVESTOR_PREFIX, validate_id(investor_id, "investor id")), RECORD


def investor_record_index_keys(investor_id: str) -> tuple[str, str]:
    """(GSI4_PK, GSI4_SK) of an investor record: in the investor page's partition."""
    return investor_index_pk(investor_id), RECORD_INDEX_SK


def parse_record_pk(pk: str) -> tuple[str, str]:
    """("fund" or "investor", id) of a record's partition key."""
    prefix, _, target_id = pk.partition(SEP)
    if prefix not in (FUND_PREFIX, INVESTOR_PREFIX) or not target_id:
        raise ValueError(f"not a record key: {pk!r}")
    return prefix.lower(), target_id


def record_audit_pk(subject: str, subject_id: str) -> str:
    """AUDIT#FUND#FUND_A: a record's audit trail, beside the record."""
    prefix = {"fund": FUND_PREFIX, "investor": INVESTOR_PREFIX}[subject]
    return _join(AUDIT_PREFIX, prefix, validate_id(subject_id, f"{subject} id"))


def name_search_keys(kind: SearchKind, target_id: str, term: str) -> tuple[str, str]:
    """(PK, SK) of a name's search item: in the id search's partitions, so one Query finds ids
    and names alike. `term` is normalised (`fundportal.domain.records.normalise_name`)."""
    validate_id(target_id, f"{kind.value} id")
    if not term or SEP in term:
        raise ValueError(f"not a search term: {term!r}")
    return search_shard(term), _join(term, kind.value, target_id)
