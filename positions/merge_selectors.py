"""Reads of the remove and merge pages: the position's register and the positions it could be
merged into (the investor's other positions in the same fund and currency: one Query on the
investor index)."""

from __future__ import annotations

from dataclasses import dataclass

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import validate_id
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories.register import RegisterRepository


@dataclass(frozen=True, slots=True)
class MergeChoice:
    register: PositionRegister
    candidates: list[str]  # positions of the same fund, investor and currency


def position_to_change(*, position_id: str, scope: AccessScope = OPERATOR) -> PositionRegister:
    """The register of a position an editor is about to remove or merge (consistent GetItem);
    NotFound outside `scope` or when not registered, NotPermitted where the user may only read."""
    register = RegisterRepository().get(validate_id(position_id, "position id"), consistent=True)
    if register is None:
        raise NotFound("Position", position_id)
    scope.require_edit(register.fund_id, "Position", position_id)
    return register


def merge_choice(*, position_id: str, scope: AccessScope = OPERATOR) -> MergeChoice:
    register = position_to_change(position_id=position_id, scope=scope)
    others = RegisterRepository().investor_positions(register.investor_id)
    candidates = sorted(
        r.position_id
        for r in others
        if r.position_id != position_id and r.fund_id == register.fund_id and r.currency == register.currency
    )
    return MergeChoice(register, candidates)
