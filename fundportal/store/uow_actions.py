"""A unit of work's actions: what each expects of the stored item (`NEW`, `ANY`, a revision,
`unchanged(entity)`, a condition), the request hash, how errors name an entity, and the one
place an entity is encoded to an item and decoded back (`item_of` / `entity_of`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord

from .gateway import EXISTS, NOT_EXISTS, Condition
from .mapping import entities as mapping
from .mapping.entities import entity_from_item
from .mapping.record_maps import is_record_item, record_of_item
from .mapping.register_maps import REGISTER_TYPE

Key = tuple[str, str]
# Attributes a position entry must still have, as read, for a change or removal to apply.
ENTRY_SEEN_ATTRIBUTES = ("Revision", "UpdatedAt", "Amount", "Status", "DueDate")


@dataclass(frozen=True, slots=True)
class _Expect:
    name: str


NEW = _Expect("new")  # the item must not exist
ANY = _Expect("any")  # no condition


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The stored item is still as `entity` was read (None: still absent)."""

    entity: Any


def unchanged(entity: Any) -> Unchanged:
    return Unchanged(entity)


def in_approval(condition: Condition, approval: str) -> Condition:
    """`condition` and the document still in `approval` (its Approval attribute is absent when
    approved): an entry counted in the part of its register that state chose stays there."""
    if approval == "Approved":
        clause = "attribute_not_exists(#approval)"
        values = dict(condition.values or {})
    else:
        clause = "#approval = :approval"
        values = {**(condition.values or {}), ":approval": approval}
    names = {**(condition.names or {}), "#approval": "Approval"}
    return Condition(f"({condition.expression}) AND {clause}", names, values or None)


def with_copies_as_read(condition: Condition, title: str, document_type: str, default_type: str) -> Condition:
    """`condition` and the document's title and type still as read (an entry copying them is
    never written with a title or type a restatement replaced meanwhile). A document stored
    without a type reads as `default_type`, one without a title as ""."""
    names = {**(condition.names or {}), "#dtitle": "Title", "#dtype": "DocumentType"}
    values = {**(condition.values or {}), ":dtitle": title, ":dtype": document_type}
    clauses = [condition.expression]
    for name, value, absent_reads_as in (("#dtitle", ":dtitle", ""), ("#dtype", ":dtype", default_type)):
        same = f"{name} = {value}"
        clauses.append(f"(attribute_not_exists({name}) OR {same})" if values[value] == absent_reads_as else same)
    return Condition(" AND ".join(clauses), names, values)  # `condition` holds no top-level OR


def of_fund(fund_id: str | None) -> Condition:
    """A check that a document exists and is of `fund_id` (a document without a fund takes any)."""
    if not fund_id:
        return EXISTS
    return Condition(
        "attribute_exists(PK) AND (attribute_not_exists(#fund) OR #fund = :fund)",
        {"#fund": "FundId"},
        {":fund": fund_id},
    )


@dataclass(frozen=True, slots=True)
class Action:
    """One named action of a transaction and what it expects."""

    name: str
    verb: str  # "Put", "Delete" or "ConditionCheck"
    entity: Any
    key: Key
    expect: Any
    request: dict[str, Any]
    stamped: bool = False
    refused: Callable[[], Exception] | None = None


# --- entity <-> item: the one place the unit of work encodes and decodes --------------------------


def item_of(entity: Any) -> dict[str, Any]:
    if isinstance(entity, dict):
        return entity
    if type(entity) in mapping.MAPS:
        return mapping.to_item(entity)
    return entity.to_item()  # the store's own records (import runs and records)


def entity_of(item: dict[str, Any]) -> Any:
    if item.get("EntityType") == REGISTER_TYPE:
        return mapping.from_item(PositionRegister, item)
    if is_record_item(item):
        return record_of_item(item)
    try:
        return entity_from_item(item)
    except KeyError:
        return item


# --- the request hash ------------------------------------------------------------------------------


def request_hash(*parts: Any) -> str:
    """What a request asked for, canonically hashed (stored with its token as `RequestHash`)."""

    def canonical(value: Any) -> Any:
        if isinstance(value, Decimal):
            return format(value.normalize(), "f")
        if isinstance(value, (date, datetime)):
            return value.isoformat()
        if isinstance(value, dict):
            return {str(k): canonical(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [canonical(v) for v in value]
        return value

    text = json.dumps(canonical(list(parts)), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def condition_for(entity: Any, expect: Any) -> Condition | None:
    if expect is ANY or expect is None:
        return None
    if expect is NEW:
        return NOT_EXISTS
    if isinstance(expect, Condition):
        return expect
    if isinstance(expect, Unchanged):
        return NOT_EXISTS if expect.entity is None else _as_read(expect.entity)
    if isinstance(entity, PositionRegister):
        # The revision pins everything, fund and investor included (they never change once set).
        return Condition(
            "#rev = :rev AND #fund = :fund AND #inv = :inv",
            {"#rev": "Revision", "#fund": "FundId", "#inv": "InvestorId"},
            {":rev": expect, ":fund": entity.fund_id, ":inv": entity.investor_id},
        )
    return Condition("Revision = :expected", values={":expected": expect})


def _as_read(entity: Any) -> Condition:
    """The entry still has the attributes it was read with (so an audit's before/after is exact),
    its revision first: two saves in one second no longer both win."""
    stored = item_of(entity)
    clauses, names, values = [], {}, {}
    for i, attribute in enumerate(ENTRY_SEEN_ATTRIBUTES):
        names[f"#a{i}"] = attribute
        if attribute == "Revision" and stored.get(attribute) == 1:
            # Entries written before revisions existed have none: revision 1 is "absent or 1".
            clauses.append(f"(attribute_not_exists(#a{i}) OR #a{i} = :a{i})")
            values[f":a{i}"] = 1
        elif stored.get(attribute) is None:
            clauses.append(f"attribute_not_exists(#a{i})")
        else:
            clauses.append(f"#a{i} = :a{i}")
            values[f":a{i}"] = stored[attribute]
    return Condition(" AND ".join(clauses), names, values)


def describe(entity: Any, key: Key) -> tuple[str, str]:
    """What an entity is and its id, as errors name them."""
    if isinstance(entity, PositionEntry):
        return entity.kind.entity_type, f"{entity.position_id} in {entity.document_id}"
    if isinstance(entity, PositionRegister):
        return "Position", entity.position_id
    if isinstance(entity, FundRecord):
        return "Fund record", entity.fund_id
    if isinstance(entity, InvestorRecord):
        return "Investor record", entity.investor_id
    if hasattr(entity, "document_id"):
        return type(entity).__name__, entity.document_id
    return "Item", f"{key[0]} {key[1]}"
