"""How a value is kept in a DynamoDB attribute and read back: one `Codec` per shape of value
(text, numbers, dates, the register's roll-up map). `fundportal.store.mapping.entities` names the codec
of every attribute of every entity."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.approval_times import Approval
from fundportal.domain.audit_trail import jsonable
from fundportal.domain.commitments import EARLIEST_EFFECTIVE, CommitmentChange
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import RestatedValue


@dataclass(frozen=True, slots=True)
class Codec:
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]

    @property
    def reads_as_is(self) -> bool:
        """A value read back unchanged: decoding skips the call (a Query decodes every field of
        every item, 3,000 items for a 1,000-position document; most fields are text)."""
        return self.decode is same


def iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def same(value: Any) -> Any:
    return value


TEXT = Codec(same, same)
OPTIONAL_TEXT = Codec(lambda v: v or None, lambda v: v or "")
NUMBER = Codec(same, same)  # Decimal in, Decimal out (the serializer never makes floats)
INTEGER = Codec(same, int)
DATE = Codec(iso, lambda v: date.fromisoformat(v) if v else None)
DATETIME = Codec(iso, lambda v: datetime.fromisoformat(v) if v else None)


# --- the register's roll-up as a DynamoDB map ----------------------------------------------------------

_MIN_AT = datetime.min.replace(tzinfo=UTC)
_UNDATED = date.min.isoformat()  # an activity's undated key (`statement_kinds.UNDATED`)


def _rank_out(rank: Any) -> list[Any] | None:
    if rank is None:
        return None
    (on, at, document_id), amount = rank
    return ["" if on == date.min else on.isoformat(), "" if at == _MIN_AT else at.isoformat(), document_id, amount]


def _rank_in(value: Any) -> Any:
    if not value:
        return None
    on, at, document_id, amount = value
    when = datetime.fromisoformat(at) if at else _MIN_AT
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    return (date.fromisoformat(on) if on else date.min, when, document_id), Decimal(amount)


def rollup_out(state: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        code: {
            "Sums": data["sums"],
            "Unfunded": _rank_out(data["unfunded"]),
            "Nav": _rank_out(data["nav"]),
            "Flows": {on.isoformat(): pair for on, pair in data["flows"].items()},
            # Every NAV entry (the NAV at any date): absent when none, as before it was kept.
            **({"Navs": [_rank_out(r) for r in data["navs"]]} if data.get("navs") else {}),
            # The capital account's activity by flow date (`statement_kinds`): absent when none.
            **(
                {"Activity": {on.isoformat(): list(sums) for on, sums in data["activity"].items()}}
                if data.get("activity")
                else {}
            ),
        }
        for code, data in state.items()
    }


# The register's awaiting-approval part rides in its Rollup map under this key (never a currency
# code), so the position index's projection of Rollup carries it: {"Documents": [...], "Rollup": {...}}.
AWAITING_KEY = "Awaiting"
# The register's approval times per document (`approval_times`) ride in Rollup the same way
# (projected with it), as {"DOC001": [["" (a first approval) or "<since ISO>", "<at ISO>"], ...]};
# absent when none.
APPROVALS_KEY = "Approvals"
# When a merge moved each entry in (`PositionRegister.moved_in`), the same way, as
# {"DOC001": {"CAPITAL_CALL": "<at ISO>"}}; absent when none.
MOVED_IN_KEY = "MovedIn"
_NOT_CURRENCIES = frozenset((AWAITING_KEY, APPROVALS_KEY, MOVED_IN_KEY))


def register_rollup_out(register: Any) -> dict[str, Any]:
    """A register's Rollup attribute: its counted roll-up, plus the awaiting part when it has one."""
    kept = rollup_out(register.rollup)
    if register.awaiting_documents:
        kept[AWAITING_KEY] = {"Documents": list(register.awaiting_documents), "Rollup": rollup_out(register.awaiting)}
    if register.approvals:
        kept[APPROVALS_KEY] = {
            doc: [[iso(a.since) or "", iso(a.at)] for a in held] for doc, held in sorted(register.approvals.items())
        }
    if register.moved_in:
        moved: dict[str, dict[str, str]] = {}
        for (document_id, kind), at in sorted(register.moved_in.items(), key=lambda i: (i[0][0], i[0][1].value)):
            moved.setdefault(document_id, {})[kind.value] = at.isoformat()
        kept[MOVED_IN_KEY] = moved
    return kept


def register_lines_out(register: Any) -> dict[str, Any]:
    """The register's slim copy for the fund page (`Lines`): its Rollup keeping, per currency, only
    the dated flows after its NAV's date (all of them without a NAV). That is all valuing it as of
    any later date needs (flows after the date are taken out, flows after the NAV date roll it
    forward), so the page's figures stay exact; the IRR, which needs every flow, is not read
    from it. A position's copy holds a quarter or so of flows, whatever its history."""
    return _flows_after_nav(register_rollup_out(register))


def _flows_after_nav(rollup: dict[str, Any]) -> dict[str, Any]:
    slim: dict[str, Any] = {}
    for code, data in rollup.items():
        if code == AWAITING_KEY:
            slim[code] = {**data, "Rollup": _flows_after_nav(data["Rollup"])}
            continue
        if code in (APPROVALS_KEY, MOVED_IN_KEY):
            continue  # the fund page values as of now only
        nav = data.get("Nav")
        since = nav[0] if nav else None  # the NAV's rank starts with its as-of date (ISO)
        flows = data.get("Flows") or {}
        kept = {on: pair for on, pair in flows.items() if since is None or on > since}
        slim[code] = {**data, "Flows": kept}
        if data.get("Activity"):
            slim[code]["Activity"] = _activity_after_nav(data["Activity"], since)
    return slim


def _activity_after_nav(activity: dict[str, list[Any]], since: str | None) -> dict[str, list[Any]]:
    """The activity dated after the NAV's date as kept, the rest added up under the undated key
    (it always counts and never rolls the NAV forward): the sums stay exact for any later date."""
    if not since:
        return activity
    kept = {on: sums for on, sums in activity.items() if on > since}
    earlier = [sums for on, sums in activity.items() if on <= since]
    if earlier:
        width = max(len(sums) for sums in earlier)
        folded = [sum((Decimal(s[i]) for s in earlier if i < len(s)), Decimal(0)) for i in range(width)]
        if any(folded):
            kept[_UNDATED] = folded
    return dict(sorted(kept.items()))


def read_awaiting(item: dict[str, Any], values: dict[str, Any]) -> None:
    """The register's awaiting-approval part from its Rollup map (none when absent)."""
    held = (item.get("Rollup") or {}).get(AWAITING_KEY)
    values["awaiting"] = rollup_in(held["Rollup"]) if held else {}
    values["awaiting_documents"] = tuple(held["Documents"]) if held else ()
    times = (item.get("Rollup") or {}).get(APPROVALS_KEY) or {}
    values["approvals"] = {
        doc: tuple(
            Approval(datetime.fromisoformat(since) if since else None, datetime.fromisoformat(at)) for since, at in held
        )
        for doc, held in times.items()
    }
    moved = (item.get("Rollup") or {}).get(MOVED_IN_KEY) or {}
    values["moved_in"] = {
        (doc, Kind(kind)): datetime.fromisoformat(at) for doc, kinds in moved.items() for kind, at in kinds.items()
    }


def rollup_in(value: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {
        code: {
            "sums": [Decimal(v) for v in data["Sums"]],
            "unfunded": _rank_in(data.get("Unfunded")),
            "nav": _rank_in(data.get("Nav")),
            "flows": {
                date.fromisoformat(on): [Decimal(v) for v in pair] for on, pair in (data.get("Flows") or {}).items()
            },
            **({"navs": [_rank_in(r) for r in data["Navs"]]} if data.get("Navs") else {}),
            **(
                {
                    "activity": {
                        date.fromisoformat(on): [Decimal(v) for v in sums] for on, sums in data["Activity"].items()
                    }
                }
                if data.get("Activity")
                else {}
            ),
        }
        for code, data in (value or {}).items()
        if code not in _NOT_CURRENCIES
    }


ROLLUP = Codec(rollup_out, rollup_in)
REGISTER_ROLLUP = Codec(same, rollup_in)  # encoded whole by `register_rollup_out`
# A document's approval: absent means approved (the seed's items carry none).
APPROVAL = Codec(lambda v: None if v == "Approved" else v, same)


def _restated_out(value: RestatedValue | None) -> dict[str, Any] | None:
    if value is None:
        return None
    kept: dict[str, Any] = {"Amount": value.amount, "Status": value.status}
    if value.due_date is not None:
        kept["DueDate"] = value.due_date.isoformat()
    if value.removed:
        kept["Removed"] = True
    if value.added:
        kept["Added"] = True
    if value.updated_at is not None:
        kept["UpdatedAt"] = value.updated_at.isoformat()
    if value.updated_by:
        kept["UpdatedBy"] = value.updated_by
    if value.parts is not None:
        kept["PartsSet"] = True  # the parts as restated, even when all are at their default
        if value.parts:
            kept["Parts"] = dict(value.parts)
    return kept


def _restated_in(value: dict[str, Any]) -> RestatedValue:
    due = value.get("DueDate")
    return RestatedValue(
        value["Amount"],
        value["Status"],
        date.fromisoformat(due) if due else None,
        bool(value.get("Removed")),
        bool(value.get("Added")),
        datetime.fromisoformat(value["UpdatedAt"]) if value.get("UpdatedAt") else None,
        value.get("UpdatedBy") or None,
        tuple(sorted(value.get("Parts", {}).items())) if value.get("PartsSet") else None,
    )


# An entry's restated value awaiting approval: a map beside the approved value; absent when none.
RESTATED = Codec(_restated_out, _restated_in)
# Markers of the imports whose new-document entries the roll-up counts: absent when none.
MARKERS = Codec(lambda v: list(v) or None, tuple)


def audit_changes_out(changes: dict[str, Any] | None) -> dict[str, Any]:
    """An audit entry's changes as kept (always a map, empty when none)."""
    return {k: jsonable(v) for k, v in (changes or {}).items()}


AUDIT_CHANGES = Codec(audit_changes_out, same)


# --- the register's commitment and its dated history ------------------------------------------------
# A number while the commitment has no dated history (as every register recorded before dated
# commitments); once a dated change is recorded, a map {Current, History}: kept in the one
# attribute the position index projects, so the position page reads the history in its Query.


def commitment_out(value: tuple[Decimal | None, tuple[CommitmentChange, ...]]) -> Any:
    current, history = value
    if not history:
        return current
    return {"Current": current, "History": [_change_out(c) for c in history]}


def commitment_in(value: Any) -> Decimal:
    return Decimal(value["Current"]) if isinstance(value, dict) else value


def commitment_history_in(value: Any) -> tuple[CommitmentChange, ...]:
    """The dated history held in a Commitment attribute (none in a plain number)."""
    if not isinstance(value, dict):
        return ()
    return tuple(_change_in(c) for c in value.get("History") or ())


def _change_out(change: CommitmentChange) -> dict[str, Any]:
    kept = {
        "EffectiveOn": "" if change.undated else change.effective_on.isoformat(),
        "Amount": change.amount,
        "Reason": change.reason,
        "RecordedAt": iso(change.recorded_at) or "",
        "RecordedBy": change.recorded_by,
    }
    return kept


def _change_in(value: dict[str, Any]) -> CommitmentChange:
    on, at = value.get("EffectiveOn"), value.get("RecordedAt")
    return CommitmentChange(
        effective_on=date.fromisoformat(on) if on else EARLIEST_EFFECTIVE,
        amount=Decimal(value["Amount"]),
        reason=value.get("Reason") or "",
        recorded_at=datetime.fromisoformat(at) if at else None,
        recorded_by=value.get("RecordedBy") or "",
    )


COMMITMENT = Codec(commitment_out, commitment_in)
