"""Reads of a position across documents (pattern 7: `GSI_Position_Document`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fundportal.domain.kinds import Kind
from fundportal.domain.model import PositionEntry, PositionRegister

from .. import cursor as cursors
from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.entities import from_item, is_register_item
from ..schema import POSITION_INDEX, TABLE
from .register import RegisterRepository

_INDEX = TABLE.index(POSITION_INDEX)


@dataclass(frozen=True, slots=True)
class PositionPage:
    """One page (one Query) of a position's entries, and what the cursor that led here carried."""

    position_id: str
    kind: Kind | None
    entries: list[PositionEntry]
    carried: dict[str, Any]
    _last_key: dict[str, Any] | None
    # The position register: sorted first in the partition, so on the first page of
    # an unfiltered Query; None on later pages, with a kind filter, or for an unregistered position.
    register: PositionRegister | None = None
    # Where this page started (None on page 1): the short back-reference of the next cursor.
    start_key: dict[str, Any] | None = None

    @property
    def start_reference(self) -> dict[str, str] | None:
        """This page's start key as plain strings (a short back-reference; None on page 1)."""
        if self.start_key is None:
            return None
        return {name: value["S"] for name, value in self.start_key.items()}

    def cursor_at(self, reference: Any, carry: dict[str, Any] | None = None) -> str | None:
        """A signed cursor of the page that starts at `reference` (a `start_reference`)."""
        if not isinstance(reference, dict) or not reference or not all(isinstance(v, str) for v in reference.values()):
            return None
        last_key = {name: {"S": value} for name, value in reference.items()}
        return cursors.encode(last_key, _binding(self.position_id, self.kind), carry)

    @property
    def has_next(self) -> bool:
        return self._last_key is not None

    def next_cursor(self, carry: dict[str, Any] | None = None) -> str | None:
        """The signed cursor of the next page (None on the last), carrying `carry` along."""
        if self._last_key is None:
            return None
        return cursors.encode(self._last_key, _binding(self.position_id, self.kind), carry)


class PositionRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    # Pattern 7
    def page(
        self, position_id: str, kind: Kind | None = None, cursor: str | None = None, limit: int | None = None
    ) -> PositionPage:
        """One Query on the position index; without `limit` a page is one response (up to 1 MB).
        The cursor is signed and bound to (index, position, kind): BadCursor otherwise."""
        condition, values = _key_condition(position_id, kind)
        start_key, carried = cursors.decode(cursor, _binding(position_id, kind)) if cursor else (None, {})
        page = self.gateway.query_page(condition, values, index=POSITION_INDEX, limit=limit, start_key=start_key)
        register = None
        entries = []
        for item in page.items:
            if is_register_item(item):
                register = from_item(PositionRegister, item)
            else:
                entries.append(from_item(PositionEntry, item))
        return PositionPage(position_id, kind, entries, carried, page.last_key, register, start_key)

    def entries_with_register(
        self, position_id: str, kind: Kind | None = None
    ) -> tuple[list[PositionEntry], PositionRegister | None]:
        """Every entry of a position, all pages, and its register (None for an unregistered
        position): from the same Query, or with a kind filter, which leaves the register out of
        it, one GetItem more."""
        condition, values = _key_condition(position_id, kind)
        register, entries = None, []
        for item in self.gateway.query(condition, values, index=POSITION_INDEX):
            if is_register_item(item):
                register = from_item(PositionRegister, item)
            else:
                entries.append(from_item(PositionEntry, item))
        if kind is not None and entries:
            register = RegisterRepository(self.gateway).get(position_id)
        return entries, register

    def entries(self, position_id: str, kind: Kind | None = None) -> list[PositionEntry]:
        """Every entry of a position, all pages (exports and reports; the register left out)."""
        condition, values = _key_condition(position_id, kind)
        items = self.gateway.query(condition, values, index=POSITION_INDEX)
        return [from_item(PositionEntry, item) for item in items if not is_register_item(item)]


def _key_condition(position_id: str, kind: Kind | None) -> tuple[str, dict[str, str]]:
    condition = f"{_INDEX.pk} = :pk"
    values = {":pk": keys.position_index_pk(position_id)}
    if kind is not None:
        condition += f" AND begins_with({_INDEX.sk}, :prefix)"
        values[":prefix"] = keys.kind_prefix(kind)
    return condition, values


def _binding(position_id: str, kind: Kind | None) -> tuple[Any, ...]:
    """What a position-page cursor is bound to: the index, the position and the kind filter."""
    return (POSITION_INDEX, position_id, kind.value if kind else None)
