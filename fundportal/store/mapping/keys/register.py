"""Keys of the position register, the funds catalog and the fund and investor records."""

from __future__ import annotations

from fundportal.domain.kinds import validate_id

from .documents import position_index_pk
from .parts import AUDIT_PREFIX, SEP, _join

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
