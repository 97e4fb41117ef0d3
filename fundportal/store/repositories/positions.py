"""Reads of a position across documents (pattern 7: `GSI_Position_Document`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fundportal.domain.entry_versions import EntryVersion
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister

from .. import cursor as cursors
from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.entities import from_item, to_item
from ..mapping.register_maps import is_register_item
from ..schema import POSITION_INDEX, TABLE
from .register import RegisterRepository

_INDEX = TABLE.index(POSITION_INDEX)
BATCH_KEYS = 100  # BatchGetItem's limit


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
    # Items of the position before this page and through its end (the register included): the
    # next page's one Query reads `read` plus its own.
    before: int = 0
    read: int = 0
    # A later page's entries before it, as they are now (None on the first page).
    earlier: list[PositionEntry] | None = None

    @property
    def start_reference(self) -> dict[str, str] | None:
        """This page's start key as plain strings (a short back-reference; None on page 1)."""
        if self.start_key is None:
            return None
        return {name: value["S"] for name, value in self.start_key.items()}

    def cursor_at(self, reference: Any, carry: dict[str, Any] | None = None) -> str | None:
        """A signed cursor of the page that starts at `reference` (a `start_reference`); `carry`
        may say how many items came before it ("n": that page's `before`)."""
        if not isinstance(reference, dict) or not reference or not all(isinstance(v, str) for v in reference.values()):
            return None
        last_key = {name: {"S": value} for name, value in reference.items()}
        return cursors.encode(last_key, _binding(self.position_id, self.kind), carry)

    @property
    def has_next(self) -> bool:
        return self._last_key is not None

    def next_cursor(self, carry: dict[str, Any] | None = None) -> str | None:
        """The signed cursor of the next page (None on the last), carrying `carry` along (and
        how many items came before it, for its one Query)."""
        if self._last_key is None:
            return None
        carry = {**(carry or {}), "n": self.read}
        return cursors.encode(self._last_key, _binding(self.position_id, self.kind), carry)


class PositionRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    # Pattern 7
    def page(
        self, position_id: str, kind: Kind | None = None, cursor: str | None = None, limit: int | None = None
    ) -> PositionPage:
        """One Query on the position index; without `limit` a page is one response (up to 1 MB).
        The cursor is signed and bound to (index, position, kind): BadCursor otherwise.

        A later page reads from the start of the position (still one Query while the position
        fits a response): the entries before the cursor (`PositionPage.earlier`) give the running
        figures as they are now, so a kept link never shows totals an edit made untrue."""
        condition, values = _key_condition(position_id, kind)
        start_key, carried = cursors.decode(cursor, _binding(position_id, kind)) if cursor else (None, {})
        before = _count(carried)
        carried = {name: value for name, value in carried.items() if name != "n"}
        if start_key is not None and limit:
            return self._later_page(position_id, kind, carried, before, start_key, limit)
        page = self.gateway.query_page(condition, values, index=POSITION_INDEX, limit=limit, start_key=start_key)
        register = None
        entries = []
        for item in page.items:
            if is_register_item(item):
                register = from_item(PositionRegister, item)
            else:
                entries.append(from_item(PositionEntry, item))
        read = before + len(page.items)
        return PositionPage(
            position_id, kind, entries, carried, page.last_key, register, start_key, before=before, read=read
        )

    def _later_page(
        self,
        position_id: str,
        kind: Kind | None,
        carried: dict[str, Any],
        before: int,
        start_key: dict[str, Any],
        limit: int,
    ) -> PositionPage:
        """`limit` entries after `start_key`, and every entry before it, reading from the start.
        The cursor carries how many items came before (`n`): when nothing moved, one Query of
        exactly that many plus `limit` ends where the page ends."""
        condition, values = _key_condition(position_id, kind)
        after = _sort_key(start_key)
        earlier: list[PositionEntry] = []
        entries: list[PositionEntry] = []
        read, last_item = 0, None
        key: dict[str, Any] | None = None
        more = False
        while True:
            page = self.gateway.query_page(condition, values, index=POSITION_INDEX, limit=before + limit, start_key=key)
            for position, item in enumerate(page.items):
                if len(entries) == limit:  # the page is full; an item follows it
                    more = True
                    break
                read += 1
                if is_register_item(item):
                    continue
                if _sort_key(item) <= after:
                    earlier.append(from_item(PositionEntry, item))
                    continue
                entries.append(from_item(PositionEntry, item))
                last_item = item
                if len(entries) == limit and position == len(page.items) - 1:
                    more = page.last_key is not None
            key = page.last_key
            if more or key is None or len(entries) == limit:
                break
        last_key = _index_key(last_item) if more and last_item is not None else None
        return PositionPage(
            position_id, kind, entries, carried, last_key, None, start_key, before=before, read=read, earlier=earlier
        )

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

    def entry_versions(self, position_id: str) -> list[EntryVersion]:
        """Every kept value of the position's entries (changed or removed), in every document:
        one Query on its history partition of the position index (more only past 1 MB). The
        index projects what valuing needs, not who replaced a value (`replaced_by` is empty)."""
        values = {":pk": keys.entry_history_position_pk(position_id)}
        items = self.gateway.query(f"{_INDEX.pk} = :pk", values, index=POSITION_INDEX)
        return [from_item(EntryVersion, item) for item in items]

    def as_stored(self, entries: list[PositionEntry]) -> list[PositionEntry]:
        """`entries` (read from the index, which holds a projection) as the table holds them,
        every attribute: consistent BatchGetItem, 100 keys a request; one gone since is left out."""
        wanted = [(item["PK"], item["SK"]) for item in (to_item(e) for e in entries)]
        found = []
        for start in range(0, len(wanted), BATCH_KEYS):
            chunk = wanted[start : start + BATCH_KEYS]
            got = self.gateway.batch_get(chunk, consistent=True)
            found += [from_item(PositionEntry, got[key]) for key in chunk if key in got]
        return found

    def entries(self, position_id: str, kind: Kind | None = None) -> list[PositionEntry]:
        """Every entry of a position, all pages (exports and reports; the register left out)."""
        condition, values = _key_condition(position_id, kind)
        items = self.gateway.query(condition, values, index=POSITION_INDEX)
        return [from_item(PositionEntry, item) for item in items if not is_register_item(item)]


def _count(carried: dict[str, Any]) -> int:
    """The item count a cursor carried (0 when missing or not a count)."""
    n = carried.get("n")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0


def _sort_key(item: dict[str, Any]) -> tuple[str, str, str]:
    """An index item's place in its partition: the index sort key, then the table keys (a plain
    item or a LastEvaluatedKey; Python orders str by code point, as DynamoDB orders UTF-8)."""

    def text(name: str) -> str:
        value = item.get(name, "")
        return value["S"] if isinstance(value, dict) else str(value)

    return text(_INDEX.sk), text(TABLE.pk), text(TABLE.sk)


def _index_key(item: dict[str, Any]) -> dict[str, Any]:
    """The ExclusiveStartKey of the index that resumes after `item`."""
    return {name: {"S": item[name]} for name in (TABLE.pk, TABLE.sk, _INDEX.pk, _INDEX.sk)}


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
