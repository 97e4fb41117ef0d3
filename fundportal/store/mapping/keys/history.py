"""Keys of replaced states: entry versions (every LP amount) and register versions."""

from __future__ import annotations

from fundportal.domain.kinds import Kind, validate_id

from .documents import entry_sk
from .parts import SEP, _join
from .register import FUND_PREFIX, INVESTOR_PREFIX

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


# --- register versions (known_at on the fund and investor pages) --------------------
#   RegisterVersion  PK=REGHIST#POSITION_1  SK=<replaced at, ISO µs>#000007
#                    GSI5_PK=REGHIST#FUND#FUND_A / GSI5_SK=<replaced at>#POSITION_1#000007 (the fund's)
#                    GSI4_PK=REGHIST#INVESTOR#INVESTOR_1 / GSI4_SK=<same>             (the investor's)
# A register's replaced states, in partitions no page, seed query or register reader shares:
# `GSI5_SK > <T>` is every register write of a fund (or an investor) after T, one Query.

REGISTER_HISTORY_PREFIX = "REGHIST"


def register_history_pk(position_id: str) -> str:
    """A position's register versions: one partition, oldest first."""
    return _join(REGISTER_HISTORY_PREFIX, validate_id(position_id, "position id"))


def register_history_keys(position_id: str, replaced_at_iso: str, revision: int) -> tuple[str, str]:
    """(PK, SK) of a register version: its position's history partition, oldest first."""
    return register_history_pk(position_id), _join(replaced_at_iso, f"{revision:06d}")


def register_history_fund_pk(fund_id: str) -> str:
    return _join(REGISTER_HISTORY_PREFIX, FUND_PREFIX, validate_id(fund_id, "fund id"))


def register_history_investor_pk(investor_id: str) -> str:
    return _join(REGISTER_HISTORY_PREFIX, INVESTOR_PREFIX, validate_id(investor_id, "investor id"))


def register_history_index_sk(replaced_at_iso: str, position_id: str, revision: int) -> str:
    """The SK of a register version in its fund's and its investor's history partitions."""
    return _join(replaced_at_iso, validate_id(position_id, "position id"), f"{revision:06d}")


# Positions registered together (`Registrations`): one item in their fund's history partition,
#   PK=REGHIST#FUND#FUND_A  SK=<registered at, ISO µs>#<first position>#REGISTERED
#   GSI5_PK=REGHIST#FUND#FUND_A / GSI5_SK=<same as SK> (found by the fund's Query with its versions)
_REGISTERED = "REGISTERED"


def registrations_keys(fund_id: str, registered_at_iso: str, first_position_id: str) -> tuple[str, str]:
    """(PK, SK) of positions registered together; the same pair is their key on the fund's index."""
    sk = _join(registered_at_iso, validate_id(first_position_id, "position id"), _REGISTERED)
    return register_history_fund_pk(fund_id), sk


def register_history_after(replaced_at_iso: str) -> str:
    """The lowest index SK of a version replaced after `replaced_at_iso` (`GSI_SK > :this`)."""
    return _join(replaced_at_iso, "~")
