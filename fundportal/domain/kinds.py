"""What the fund data is made of, by name: the kinds of entity, their statuses, and the rules an
id must follow (ids arrive from URLs, forms, files and the command line, and are checked here
before any request)."""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum

from .errors import InvalidId

ID_PATTERN = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
VERSION_ID_PATTERN = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:\.([0-9]{1,6}))?")
# [0-9], not \d: \d also matches non-ASCII digits, which int() would accept.
MONTH_PATTERN = re.compile(r"([0-9]{4})-([0-9]{2})")
# A notice file is named by its sha256; an import by its marker, the sha256's first 16 hex digits.
CHECKSUM_PATTERN = re.compile(r"[0-9a-f]{64}")
MARKER_DIGITS = 16
MARKER_PATTERN = re.compile(r"[0-9a-f]{16}")


class Kind(StrEnum):
    """Entity kinds; the value is the kind's stored name (and EntityType is `entity_type`)."""

    DOCUMENT = "DOCUMENT"
    CAPITAL_ACTIVITY = "CAPITAL_ACTIVITY"
    CAPITAL_CALL = "CAPITAL_CALL"
    DISTRIBUTION = "DISTRIBUTION"
    UNFUNDED_COMMITMENT = "UNFUNDED_COMMITMENT"
    NAV = "NAV"  # net asset value: the capital account's value at the document's as-of date
    # Allocations to the capital account (not cash): what an LP statement holds beside the flows.
    MANAGEMENT_FEE = "MANAGEMENT_FEE"  # a fee line: gross, an offset or a waiver (`FEE_LINES`)
    PARTNERSHIP_EXPENSE = "PARTNERSHIP_EXPENSE"
    REALIZED_GAIN = "REALIZED_GAIN"  # signed: a loss is negative
    UNREALIZED_GAIN = "UNREALIZED_GAIN"  # signed: a loss is negative
    CARRIED_INTEREST = "CARRIED_INTEREST"  # accrued or paid (`CARRY_STAGES`)

    @property
    def entity_type(self) -> str:
        return _ENTITY_TYPES[self]

    @property
    def is_position_entry(self) -> bool:
        return self in POSITION_KINDS

    @property
    def slug(self) -> str:
        """Lower-case name used in URLs and command-line options."""
        return self.value.lower()

    @classmethod
    def from_slug(cls, slug: str) -> Kind:
        try:
            return cls[slug.upper()]
        except KeyError:
            raise InvalidId("entity", slug) from None

    @classmethod
    def from_entity_type(cls, entity_type: str) -> Kind:
        return _KINDS_BY_TYPE[entity_type]


_ENTITY_TYPES = {
    Kind.DOCUMENT: "Document",
    Kind.CAPITAL_ACTIVITY: "CapitalActivity",
    Kind.CAPITAL_CALL: "CapitalCall",
    Kind.DISTRIBUTION: "Distribution",
    Kind.UNFUNDED_COMMITMENT: "UnfundedCommitment",
    Kind.NAV: "NetAssetValue",
    Kind.MANAGEMENT_FEE: "ManagementFee",
    Kind.PARTNERSHIP_EXPENSE: "PartnershipExpense",
    Kind.REALIZED_GAIN: "RealizedGain",
    Kind.UNREALIZED_GAIN: "UnrealizedGain",
    Kind.CARRIED_INTEREST: "CarriedInterest",
}
_KINDS_BY_TYPE = {v: k for k, v in _ENTITY_TYPES.items()}
# The seed's three kinds and NAV first (their order is the pages' and files' column order), then
# the capital account's allocations (`STATEMENT_KINDS`).
STATEMENT_KINDS = (
    Kind.MANAGEMENT_FEE,
    Kind.PARTNERSHIP_EXPENSE,
    Kind.REALIZED_GAIN,
    Kind.UNREALIZED_GAIN,
    Kind.CARRIED_INTEREST,
)
POSITION_KINDS = (Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV, *STATEMENT_KINDS)
# A management fee entry is one line of the fee: the gross fee, an offset (e.g. transaction fees
# credited against it) or a waiver; each amount is zero or more, net fee = gross - offsets - waivers.
FEE_GROSS, FEE_OFFSET, FEE_WAIVER = "gross", "offset", "waiver"
FEE_LINES = (FEE_GROSS, FEE_OFFSET, FEE_WAIVER)
# Carried interest is accrued (allocated to the GP, may be negative: a reversal or clawback) or
# paid (zero or more).
CARRY_ACCRUED, CARRY_PAID = "accrued", "paid"
CARRY_STAGES = (CARRY_ACCRUED, CARRY_PAID)
VERSIONED_KINDS = (Kind.DOCUMENT, Kind.CAPITAL_ACTIVITY)


class SearchKind(StrEnum):
    """What a search names: a document, position, fund or investor id."""

    DOCUMENT = "document"
    POSITION = "position"
    FUND = "fund"
    INVESTOR = "investor"


# --- statuses and types --------------------------------------------------------------------------

LATEST = "Latest"  # a versioned entity's current copy
HISTORICAL = "Historical"  # a superseded copy

# A document's approval (four eyes): Draft -> Submitted -> Approved. Only an approved document's
# entries count in the headline figures; the others are shown apart as "awaiting approval".
# Approving moves its entries into the counted figures in stages when it holds many positions,
# and the document is "Approving" meanwhile (no entry write may land in between).
DRAFT = "Draft"
SUBMITTED = "Submitted"
APPROVING = "Approving"
APPROVED = "Approved"
APPROVAL_STATES = (DRAFT, SUBMITTED, APPROVING, APPROVED)
DOCUMENT_STATUSES = ("Active", "Draft", "Final")
# What kind of document it is; set on create, shown and filtered on the list. A document
# stored without one (before types existed) reads as "other".
DOCUMENT_TYPES = (
    "capital_call_notice",
    "distribution_notice",
    "capital_account_statement",
    "quarterly_report",
    "other",
)
DEFAULT_DOCUMENT_TYPE = "other"
ACTIVITY_STATUSES = ("Pending", "Completed", "Cancelled")
ENTRY_STATUSES = ("Pending", "Completed", "Active", "Cancelled")


# --- id rules --------------------------------------------------------------------------------------


def validate_id(value: object, what: str = "id") -> str:
    """Return `value` if it is a valid id (1-64 of [A-Za-z0-9_.-], not only dots: '.' and '..'
    would be path segments no URL can address), else raise InvalidId."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value) or not value.strip("."):
        raise InvalidId(what, value)
    return value


def version_id(on: date, revision: int | None = None) -> str:
    """Public id of a superseded copy, safe in URLs: '2025-09-01' or '2025-09-01.2'."""
    return on.isoformat() if revision is None else f"{on.isoformat()}.{revision}"


def parse_version_id(value: str) -> tuple[date, int | None]:
    """Inverse of `version_id` for user input; raises InvalidId when malformed."""
    match = VERSION_ID_PATTERN.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise InvalidId("version", value)
    try:
        on = date.fromisoformat(match.group(1))
    except ValueError:
        raise InvalidId("version", value) from None
    return on, int(match.group(2)) if match.group(2) else None


def parse_month(value: str) -> tuple[int, int]:
    """Parse a 'YYYY-MM' month string from user input; raises InvalidId when malformed."""
    match = MONTH_PATTERN.fullmatch(value) if isinstance(value, str) else None
    if not match or int(match.group(1)) < 1 or not 1 <= int(match.group(2)) <= 12:
        raise InvalidId("month", value)
    return int(match.group(1)), int(match.group(2))


def validate_checksum(value: object) -> str:
    """Return `value` if it is a file's sha256 (64 lower-case hex digits), else raise InvalidId."""
    if not isinstance(value, str) or not CHECKSUM_PATTERN.fullmatch(value):
        raise InvalidId("file checksum", value)
    return value


def validate_marker(value: object) -> str:
    """Return `value` if it is an import marker (`import_marker`), else raise InvalidId."""
    if not isinstance(value, str) or not MARKER_PATTERN.fullmatch(value):
        raise InvalidId("import marker", value)
    return value


def import_marker(checksum: str) -> str:
    """The short name of an import (what a register lists of the imports whose entries it counts
    until they are published): the first 16 hex digits of the file's sha256."""
    return validate_checksum(checksum)[:MARKER_DIGITS]


def normalise_search(value: str) -> str:
    """The search form of an id or a query: lower case (ids are ASCII)."""
    return value.lower()


# Ids of the throwaway documents and positions `access_patterns` writes to measure the write
# patterns (deleted afterwards; the store gives their items a short time to live in case not).
THROWAWAY_PREFIX = "EXPLAIN-"


def is_throwaway(identifier: str | None) -> bool:
    """Whether a document or position id names one of the explainer's throwaway items."""
    return bool(identifier) and str(identifier).startswith(THROWAWAY_PREFIX)
