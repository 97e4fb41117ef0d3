"""A refused transaction turned into a typed error tied to the named action that failed, and the
re-read that finds a concurrent submission of the same request already landed (`AlreadyApplied`)."""

from __future__ import annotations

from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import AlreadyExists, Conflict, IdempotencyMismatch, NotFound
from fundportal.domain.position_register import PositionRegister

from . import gateway as table_gateway
from .errors import StoreUnavailable, TransactionCancelled
from .gateway import TableGateway
from .repositories.documents import REQUEST_HASH, REQUEST_TOKEN, DocumentRepository
from .uow_actions import NEW, Action, Unchanged, describe, entity_of
from .uow_registers import RegisterChanged

IN_FLIGHT_CHECKS = 4  # re-reads after DynamoDB refused a token whose first use may be in flight
RETRYABLE_REASONS = frozenset({"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"})


class AlreadyApplied(Exception):
    """This very request (same token, same values) already landed: `entity` is what it wrote."""

    def __init__(self, entity: Any) -> None:
        self.entity = entity


class TransactionRefusals:
    """The unit of work's answers to a refused commit (mixed into `UnitOfWork`)."""

    gateway: TableGateway
    documents: DocumentRepository
    actions: list[Action]
    form_token: str | None
    token: str
    request_hash: str | None

    def _failure(self, error: TransactionCancelled | IdempotencyMismatch) -> Exception:
        """The typed error of a refused transaction, tied to the action that failed (its
        `action` names it and `entity` is what it wrote or checked)."""
        if isinstance(error, IdempotencyMismatch):
            failed = [a for a in [self._subject()] if a is not None]
        else:
            failed = [a for a, r in zip(self.actions, error.reasons, strict=False) if _refused(r)]
        if not failed:
            if isinstance(error, TransactionCancelled) and set(error.reasons) & RETRYABLE_REASONS:
                return StoreUnavailable("the document is busy with other writes; try again")
            return error
        first = failed[0]
        if first is self._subject() and self.form_token:
            self._raise_if_landed(checks=IN_FLIGHT_CHECKS if isinstance(error, IdempotencyMismatch) else 1)
        refusal = self._refusal(first, failed)
        refusal.action, refusal.entity = first.name, first.entity  # type: ignore[attr-defined]
        return refusal

    def _refusal(self, action: Action, failed: list[Action]) -> Exception:
        if action.refused is not None:
            return action.refused()
        if action.verb == "ConditionCheck":
            return action.refused() if action.refused else NotFound(*describe(action.entity, action.key))
        if isinstance(action.entity, PositionRegister):
            return RegisterChanged(
                tuple(a.entity.position_id for a in failed if isinstance(a.entity, PositionRegister))
            )
        if action.expect is NEW:
            return AlreadyExists(*describe(action.entity, action.key))
        return self._conflict(action)

    def _conflict(self, action: Action) -> Conflict:
        """Who changed the item, and when (one consistent GetItem)."""
        what, key = describe(action.entity, action.key)
        item = self.gateway.get(action.key, consistent=True)
        now = entity_of(item) if item else None
        expected = action.expect
        if isinstance(expected, Unchanged):
            expected = getattr(expected.entity, "revision", None)
        if now is None:
            return Conflict(what, key, None, None)
        return Conflict(what, key, expected, now.revision, now.updated_by, now.updated_at)

    def _subject(self) -> Action | None:
        """The action the request is about: its stamped put, else its delete."""
        return next((a for a in self.actions if a.stamped), None) or next(
            (a for a in self.actions if a.verb == "Delete"), None
        )

    def _raise_if_landed(self, checks: int) -> None:
        """A concurrent submission of this very request may have won, or still be in flight
        (DynamoDB refuses a token whose first use is not finished): re-read and answer with it."""
        subject = self._subject()
        audit = next((a.entity for a in self.actions if isinstance(a.entity, AuditEntry)), None)
        for attempt in range(checks):
            if attempt:
                table_gateway.backoff(attempt)
            if subject is not None and subject.stamped:
                item = self.gateway.get(subject.key, consistent=True)
                if item and item.get(REQUEST_TOKEN) == self.token and item.get(REQUEST_HASH) == self.request_hash:
                    raise AlreadyApplied(entity_of(item))
            elif (
                subject is not None
                and audit is not None
                and audit.document_id is not None
                and self.removed(audit.document_id, audit.action)
            ):
                raise AlreadyApplied(subject.entity)

    def removed(self, document_id: str, action: str = "delete") -> bool:
        """The document's recent audit trail holds an `action` made with this form's token."""
        if not self.form_token:
            return False
        trail = self.documents.audit_trail(document_id, limit=50)
        return any(a.token == self.token and a.action == action for a in trail)


def _refused(reason: str) -> bool:
    return reason == "ConditionalCheckFailed"
