"""The rule every new document, fund, position and investor id is checked by: it is not another
spelling of one already in the table (`position_1` beside `POSITION_1`)."""

from __future__ import annotations

from fundportal.domain.errors import SpelledOtherwise
from fundportal.domain.kinds import SearchKind, normalise_search
from fundportal.store.uow import UnitOfWork


def refuse_other_spellings(uow: UnitOfWork, ids: list[tuple[SearchKind, str, str]]) -> None:
    """SpelledOtherwise when an id (kind, id, what) is not in the table as spelled but another
    spelling of it is: `position_1` beside `POSITION_1` would be a second position."""
    named = [(kind, value) for kind, value, _ in ids if value]
    if not named:
        return
    spellings = uow.spellings.existing(named)
    for kind, value, what in ids:
        existing = spellings.get((kind, normalise_search(value)), set()) if value else set()
        if existing and value not in existing:
            raise SpelledOtherwise(what, value, sorted(existing)[0])
