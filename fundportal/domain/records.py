"""Fund and investor records: what a fund and an investor are called, beside their ids.

- A fund record: name, legal name, vintage (the year of first close), currency and GP.
- An investor record: name and type (pension, endowment, ...).

Both are plain values with their rules (`FundRecord.check`, `InvestorRecord.check`); each carries
its revision (0: never stored) so a change is conditioned on the one the editor saw. Who may edit
them is the services' business (`funds.record_services`); how they are stored, the store's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .errors import InvalidRecord
from .kinds import validate_id
from .money import CURRENCIES

NAME_MAX_LENGTH = 200
GP_MAX_LENGTH = 200
VINTAGE_RANGE = (1900, 2100)
# Search by name: the full name and the name from each later word on (so "capital" finds "Alpha
# Capital Partners"), at most this many words deep.
NAME_SEARCH_WORDS = 8

INVESTOR_TYPES: dict[str, str] = {
    "pension": "Pension",
    "endowment": "Endowment",
    "foundation": "Foundation",
    "insurance": "Insurance",
    "family_office": "Family office",
    "sovereign_wealth": "Sovereign wealth",
    "fund_of_funds": "Fund of funds",
    "individual": "Individual",
    "other": "Other",
}


def _text(value: str, field: str, limit: int, *, required: bool) -> str:
    cleaned = " ".join(value.split())
    if required and not cleaned:
        raise InvalidRecord(field, "missing")
    if len(cleaned) > limit:
        raise InvalidRecord(field, "too_long")
    return cleaned


@dataclass(frozen=True, slots=True)
class FundRecord:
    fund_id: str
    name: str
    legal_name: str = ""
    vintage: int | None = None
    currency: str = "USD"
    gp: str = ""
    revision: int = 0  # 0: not stored yet
    updated_at: datetime | None = None
    updated_by: str | None = None

    FIELDS = ("name", "legal_name", "vintage", "currency", "gp")

    def check(self) -> FundRecord:
        """The record with its text tidied (whitespace collapsed); InvalidRecord when a rule fails."""
        validate_id(self.fund_id, "fund id")
        if self.vintage is not None and not VINTAGE_RANGE[0] <= self.vintage <= VINTAGE_RANGE[1]:
            raise InvalidRecord("vintage", "out_of_range")
        if self.currency not in CURRENCIES:
            raise InvalidRecord("currency", "unknown")
        return FundRecord(
            self.fund_id,
            _text(self.name, "name", NAME_MAX_LENGTH, required=True),
            _text(self.legal_name, "legal_name", NAME_MAX_LENGTH, required=False),
            self.vintage,
            self.currency,
            _text(self.gp, "gp", GP_MAX_LENGTH, required=False),
            self.revision,
            self.updated_at,
            self.updated_by,
        )


@dataclass(frozen=True, slots=True)
class InvestorRecord:
    investor_id: str
    name: str
    investor_type: str = "other"
    revision: int = 0
    updated_at: datetime | None = None
    updated_by: str | None = None

    FIELDS = ("name", "investor_type")

    @property
    def type_label(self) -> str:
        return INVESTOR_TYPES.get(self.investor_type, self.investor_type)

    def check(self) -> InvestorRecord:
        validate_id(self.investor_id, "investor id")
        if self.investor_type not in INVESTOR_TYPES:
            raise InvalidRecord("investor_type", "unknown")
        name = _text(self.name, "name", NAME_MAX_LENGTH, required=True)
        return InvestorRecord(
            self.investor_id, name, self.investor_type, self.revision, self.updated_at, self.updated_by
        )


@dataclass(frozen=True, slots=True)
class RecordAudit:
    """Who changed a fund's or an investor's record, and how: {field: [old, new]}."""

    subject: str  # "fund" or "investor"
    subject_id: str
    at: datetime
    user: str
    changes: dict[str, Any]
    token: str = ""


def record_changes(old: FundRecord | InvestorRecord | None, new: FundRecord | InvestorRecord) -> dict[str, Any]:
    """Field-by-field changes between a stored record (None: none yet) and its new values."""
    changes = {}
    for name in new.FIELDS:
        before = getattr(old, name) if old is not None else None
        after = getattr(new, name)
        if before != after:
            changes[name] = [before, after]
    return changes


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# What a name query may hold: words, spaces and the punctuation names use ('#' and the like are
# not: a query with them is a mistyped id, and is refused as one).
_NAME_QUERY = re.compile(r"[\w\s'.,&()/+-]+")


def is_name_query(text: str) -> bool:
    """Whether `text` can be searched as a name (words in it, nothing but name punctuation)."""
    return bool(_NAME_QUERY.fullmatch(text)) and bool(normalise_name(text))


def normalise_name(name: str) -> str:
    """The search form of a name or a name query: lower case, words only, single spaces."""
    return " ".join(_WORD.findall(name.casefold()))


def name_search_terms(name: str) -> list[str]:
    """What a name is found by, each as a prefix: the whole name and the name from each later
    word on (so any word of the name, or the start of one, finds it)."""
    words = normalise_name(name).split(" ")
    if words == [""]:
        return []
    return [" ".join(words[i:]) for i in range(min(len(words), NAME_SEARCH_WORDS))]


@dataclass
class RecordNames:
    """Fund and investor names by id ("" for an id without a record)."""

    funds: dict[str, str] = field(default_factory=dict)
    investors: dict[str, str] = field(default_factory=dict)

    def fund(self, fund_id: str) -> str:
        return self.funds.get(fund_id, "")

    def investor(self, investor_id: str) -> str:
        return self.investors.get(investor_id, "")
