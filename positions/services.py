"""Writes about positions (issue 13): the position register's rules and the commitment.

- A position's fund and investor are fixed by its register (set by its first entry); an entry
  naming another fund or investor is refused (`PositionMismatch`, a form error), and so is an
  entry whose fund is not its document's fund.
- The register's roll-up after an entry write is computed here with the one accumulator
  (`FiguresBuilder`): un-count the entry as it was, count it as it is now; when the entry that
  held the latest unfunded commitment or NAV changes or goes, that "latest" is recounted from
  the position's other entries of that kind (one Query on the position index, only then).
- The register goes into the entry's transaction conditioned on the revision read; if another
  writer moved it first (`RegisterChanged`) the whole write is re-read and retried, bounded.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from typing import Any, TypeVar

from fundportal.domain.errors import NotFound, PositionMismatch
from fundportal.domain.kinds import Kind
from fundportal.domain.model import AuditEntry, Document, PositionEntry, PositionRegister, utcnow
from fundportal.domain.money import money
from fundportal.dynamo.gateway import backoff
from fundportal.dynamo.repositories.register import RegisterChanged, RegisterRepository, RegisterWrite

REGISTER_ATTEMPTS = 8  # a write re-read and retried at most this many times when the register moved
F = TypeVar("F", bound=Callable[..., Any])


def check_entry(entry: PositionEntry, document: Document, register: PositionRegister | None) -> None:
    """Refuse an entry whose fund is not its document's, or whose fund or investor is not its position's."""
    if document.fund_id and entry.fund_id != document.fund_id:
        raise PositionMismatch("fund_id", "document", entry.document_id, document.fund_id, entry.fund_id)
    if register is None:
        return
    if entry.fund_id != register.fund_id:
        raise PositionMismatch("fund_id", "position", entry.position_id, register.fund_id, entry.fund_id)
    if entry.investor_id != register.investor_id:
        raise PositionMismatch("investor_id", "position", entry.position_id, register.investor_id, entry.investor_id)


def register_after(
    repository: Any, register: PositionRegister | None, before: PositionEntry | None, after: PositionEntry | None
) -> RegisterWrite:
    """The register once `before` (as stored) is replaced by `after` (None: removed/new)."""
    entry = after or before
    assert entry is not None
    if register is None:  # an entry for an unregistered position registers it
        register = PositionRegister(entry.position_id, entry.fund_id, entry.investor_id, currency=entry.currency)
    builder = register.builder()
    recount = builder.remove(before) if before is not None else None
    if after is not None:
        builder.add(after)
    if recount is not None:
        found = repository.position_entries(entry.position_id, recount)
        others = [e for e in found if e.document_id != entry.document_id]
        builder.reconsider(recount, others)
    now = utcnow()
    new = replace(register.with_builder(builder), revision=register.revision + 1, updated_at=now)
    return RegisterWrite(new, register.revision)


def retry_token(token: str | None, attempt: int) -> str | None:
    """A fresh ClientRequestToken for a retry after the register moved (the retried transaction
    has other parameters; reusing the token could be refused as an idempotency mismatch)."""
    if not token or attempt == 0:
        return token
    return hashlib.sha256(f"{token}:{attempt}".encode()).hexdigest()[:32]


def retry_when_register_moves(write: F) -> F:
    """Re-read and retry a service write when the register moved under it. The write gets the
    `attempt` number: its transaction's ClientRequestToken is `retry_token(token, attempt)`,
    while the items and the audit keep the form's own token (so a resubmitted form is still
    recognised, and the audit names the request that made the change)."""

    @functools.wraps(write)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(REGISTER_ATTEMPTS):
            try:
                return write(*args, **kwargs, attempt=attempt)
            except RegisterChanged:
                if attempt == REGISTER_ATTEMPTS - 1:
                    raise
                backoff(attempt)
        raise AssertionError("unreachable")

    return wrapper  # type: ignore[return-value]


def load_entry_and_register(
    repository: Any, document_id: str, kind: Kind, position_id: str
) -> tuple[PositionEntry, PositionRegister | None]:
    """The entry (NotFound if missing) and its register, in one consistent BatchGetItem."""
    _document, loaded, register = repository.load_for_entry_with_register(document_id, kind, position_id)
    if loaded.entity is None:
        raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
    return loaded.entity, register


# --- commitment -----------------------------------------------------------------------------------


def commitment_set(
    *,
    position_id: str,
    amount: Decimal,
    expected_revision: int,
    user: str,
    token: str | None = None,
    repository: RegisterRepository | None = None,
) -> PositionRegister:
    """Record or change a position's commitment (in the register's currency), conditioned on the
    register revision the editor saw (Conflict-like `RegisterChanged` otherwise), audited."""
    repository = repository or RegisterRepository()
    register = repository.get(position_id, consistent=True)
    if register is None:
        raise NotFound("Position", position_id)
    if register.revision != expected_revision:
        raise RegisterChanged()
    money(amount, register.currency)  # validates the amount
    now = utcnow()
    new = replace(register, commitment=amount, revision=register.revision + 1, updated_at=now, updated_by=user)
    changes = {f"commitment ({register.currency})": [_plain(register.commitment), _plain(amount)]}
    token = token or uuid.uuid4().hex
    audit = AuditEntry(position_id, now, user, "commitment", f"Position {position_id}", changes, token)
    repository.save(new, register.revision, audit)
    return new


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else str(value)
