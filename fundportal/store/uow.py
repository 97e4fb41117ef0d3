"""The unit of work: every multi-item write is one TransactWriteItems, and everything about it
that is not a business rule lives here.

    with uow:
        uow.check(document, of_fund(entry.fund_id), name="document")
        uow.put(entry, expect=unchanged(before), name="entry", stamped=True)
        uow.put(audit, expect=NEW, name="audit")
        uow.commit()

- Each action is named for what it is ("document", "entry", "register", "audit", "import run")
  and says what it expects of the stored item: `NEW` (absent), `ANY` (nothing), a revision, or
  `unchanged(entity)` (still as read; `unchanged(None)`: still absent as read).
- Companions: `put(entity, ..., companions=True)` also puts the constant items the entity's write
  brings along for the catalog and search indexes (the mapping declares which: `companions_of`),
  each once per transaction.
- The request (`request(token, *asked)`): its token is the form's (else a fresh one), stamped as
  `RequestToken` on the `stamped` puts and on the audit, with `RequestHash`, the hash of what the
  request asked for. The transaction's ClientRequestToken is the token (a derived one on a retry
  after a register moved: the retried transaction has other parameters).
- Idempotency: the same token with the same values is success (`landed`, and after a refused
  commit a re-read of the stamped item or the audit trail); the same token with other values is
  a new write on top of the form's own one, under a fresh token (`resubmitted`).
- Retries: a TransactionConflict or throttling cancellation is sent again with the same token
  (backoff); a register that moved (`RegisterChanged`) re-runs the service's read and rule
  (`run`), bounded.
- Failures: each cancellation reason is tied to its named action and becomes a typed error:
  a failed check NotFound, a NEW put AlreadyExists, a register RegisterChanged, any other
  expectation a Conflict naming who changed the item and when.
- Fund summaries: a register's put names the register it replaces (`was=`, None when new);
  the unit of work adds the difference to the fund's summary shard in the same transaction,
  ONE `ADD` update per shard touched whatever the number of registers (`SummaryDeltas`), so a
  fund's totals are exact without reading the fund (`fundportal.domain.summary`). A caller
  packing a transaction leaves room for `summary_actions()` more actions.
- Register versions: each register put (and delete) also puts the state it replaces as a
  `RegisterVersion` with the write's summary delta (`fundportal.domain.register_versions`), so
  the fund and investor pages can show a register as it stood at a past moment: a register
  costs `REGISTER_ACTIONS` actions of a transaction. A new register that says when it was
  registered (`registered_at`, an import's) keeps no version of its own: the transaction puts
  ONE `Registrations` per fund and moment for all of them, so it costs one action and its fund
  one more (never more than `REGISTER_ACTIONS` a register).
- Leaving `with` without `commit()` discards the actions: nothing is written.

The actions and their conditions are in `uow_actions`, a refused commit's typed errors in
`uow_refusals`, a register write's cost and retries in `uow_registers`.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from fundportal.domain import summary as summary_rule
from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import IdempotencyMismatch
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.register_versions import RegisterVersion, Registrations

from . import gateway as table_gateway
from .errors import TransactionCancelled
from .gateway import EXISTS, Condition, TableGateway
from .mapping.companions import FundCatalogEntry, companion_name
from .mapping.document_maps import document_copies
from .mapping.entities import companions_of
from .repositories.documents import REQUEST_HASH, REQUEST_TOKEN, DocumentRepository
from .repositories.imports import ImportRepository
from .repositories.register import RegisterRepository
from .repositories.spellings import SpellingRepository
from .repositories.summaries import SummaryDeltas
from .uow_actions import (
    ANY,
    NEW,
    Action,
    Unchanged,
    condition_for,
    describe,
    in_approval,
    item_of,
    of_fund,
    request_hash,
    unchanged,
    with_copies_as_read,
)
from .uow_refusals import RETRYABLE_REASONS, AlreadyApplied, TransactionRefusals
from .uow_registers import REGISTER_ACTIONS, RegisterChanged, summary_actions, when_registers_move

__all__ = [
    "ANY",
    "EXISTS",
    "NEW",
    "REGISTER_ACTIONS",
    "Action",
    "ImportUnitOfWork",
    "RegisterChanged",
    "Unchanged",
    "UnitOfWork",
    "describe",
    "in_approval",
    "of_fund",
    "request_hash",
    "summary_actions",
    "unchanged",
    "when_registers_move",
    "with_copies_as_read",
]

T = TypeVar("T")
Key = tuple[str, str]
_UNSET: Any = object()


class UnitOfWork(TransactionRefusals):
    """Collects named actions and commits them as one transaction (see the module's docstring)."""

    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()
        self.documents = DocumentRepository(self.gateway)
        self.registers = RegisterRepository(self.gateway)
        self.imports = ImportRepository(self.gateway)
        self.spellings = SpellingRepository(self.gateway)
        self.summaries = SummaryDeltas()
        # New registers that keep their registration, by fund and moment (`_keep_version`).
        self.registered: dict[tuple[str, datetime], list[PositionRegister]] = {}
        self.actions: list[Action] = []
        self.committed = False
        self.attempt = 0
        self.request()

    # --- the request ---

    def request(self, token: str | None = None, *asked: Any) -> None:
        """This unit's request: the form's `token` (None: a fresh one) and what it asks for."""
        self.form_token = token
        self.request_hash = request_hash(*asked) if asked else None
        self.token = token or uuid.uuid4().hex

    def landed(self, token: str | None, stamped_hash: str | None) -> bool:
        """An item stamped (`token`, `stamped_hash`) was written by this very request (items
        written before hashes existed count as the same request)."""
        same_values = stamped_hash is None or stamped_hash == self.request_hash
        return bool(self.form_token) and token == self.form_token and same_values

    def resubmitted(self, token: str | None) -> bool:
        """This form's token wrote the item with other values (Back, edit, submit): the new values
        go on top of it as a new write, under a fresh token."""
        if not self.form_token or token != self.form_token:
            return False
        self.token = uuid.uuid4().hex
        return True

    def run(self, write: Callable[[], T]) -> T:
        """`write()` (the service's read, rule and commit), re-run when a register moved; a
        request that already landed answers with what it wrote."""

        def attempt() -> T:
            self.token = self.form_token or uuid.uuid4().hex
            try:
                return write()
            except AlreadyApplied as done:
                return done.entity
            except RegisterChanged:
                self.attempt += 1
                raise

        self.attempt = 0
        return when_registers_move(attempt)

    # --- actions ---

    def __enter__(self) -> UnitOfWork:
        self.actions, self.committed = [], False
        self.summaries.clear()
        self.registered = {}
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.rollback()

    def rollback(self) -> None:
        """Discard what was not committed (nothing of it was sent)."""
        self.actions = []
        self.summaries.clear()
        self.registered = {}

    def put(
        self,
        entity: Any,
        *,
        expect: Any = ANY,
        name: str,
        stamped: bool = False,
        companions: bool = False,
        refused: Callable[[], Exception] | None = None,
        was: PositionRegister | None = _UNSET,
    ) -> None:
        """Put `entity` as the action `name` expecting `expect`; `stamped` marks it with the request
        (token and hash); `companions` adds the constant items its write brings along; `refused`
        is raised when the expectation fails (default: the action's typed error). A register
        names the register it replaces (`was`, None when new): its fund summary changes by the
        difference in the same transaction."""
        if isinstance(entity, PositionRegister):
            if was is _UNSET:
                raise TypeError("a register's put names the register it replaces (was=...)")
            self.summaries.register_changed(was, entity)
            self._keep_version(was, entity)
        if isinstance(entity, AuditEntry):
            entity = self._audit(entity)
        item = item_of(entity)
        if stamped:
            item = {**item, REQUEST_TOKEN: self.token}
            if self.request_hash:
                item[REQUEST_HASH] = self.request_hash
        key = (item["PK"], item["SK"])
        if expect is ANY and any(a.key == key and a.expect is ANY for a in self.actions):
            return  # a constant item named twice (a transaction touches an item once)
        request = self.gateway.put_action(item, condition_for(entity, expect))
        self.actions.append(Action(name, "Put", entity, key, expect, request, stamped, refused=refused))
        if companions:
            for companion in self.companions_of(entity):
                self.put(companion, name=companion_name(companion))

    def _keep_version(self, before: PositionRegister | None, after: PositionRegister | None) -> None:
        """The state a register write replaces (`before`, None: it registers the position), kept
        with when and the write's summary delta, in the same transaction. A new register carrying
        its `registered_at` joins its fund's `Registrations` instead (put by `commit`)."""
        if before is None and after is not None and after.registered_at is not None:
            self.registered.setdefault((after.fund_id, after.registered_at), []).append(after)
            return
        held = after or before
        assert held is not None
        version = RegisterVersion(
            position_id=held.position_id,
            fund_id=held.fund_id,
            investor_id=held.investor_id,
            replaced_at=datetime.now(UTC),
            before=before,
            delta=summary_rule.delta(before, after),
            revision=before.revision if before is not None else 0,
        )
        request = self.gateway.put_action(item_of(version), None)
        key = self._key(version)
        self.actions.append(Action("register version", "Put", version, key, ANY, request))

    def companions_of(self, entity: Any) -> list[Any]:
        """The companion items a write of `entity` brings along (the mapping's declaration)."""
        return companions_of(entity)

    def _audit(self, audit: AuditEntry) -> AuditEntry:
        """Microsecond time, so a document's audit items sort in the order they were written;
        the audit names the request that made the change."""
        return replace(audit, at=datetime.now(UTC), token=audit.token or self.token)

    def delete(self, entity: Any, *, expect: Any = ANY, name: str) -> None:
        """Delete `entity` (or a key) expecting `expect`; a deleted register takes its share out of
        its fund summary in the same transaction."""
        if isinstance(entity, PositionRegister):
            self.summaries.register_changed(entity, None)
            self._keep_version(entity, None)
        key = entity if isinstance(entity, tuple) else self._key(entity)
        request = self.gateway.delete_action(key, condition_for(entity, expect))
        self.actions.append(Action(name, "Delete", entity, key, expect, request))

    def refresh_copies(
        self, entry: Any, document: Any, *, name: str, refused: Callable[[], Exception] | None = None
    ) -> None:
        """Set `entry`'s copies of `document`'s title and type and nothing else of it (its values
        and revision stay: a form open on it still saves), on condition that it still exists
        (`refused` otherwise: never an item made of the two copies alone)."""
        key = self._key(entry)
        copies = document_copies(document)
        names = {f"#c{n}": attribute for n, attribute in enumerate(copies)}
        values = {f":c{n}": value for n, value in enumerate(copies.values())}
        update = "SET " + ", ".join(f"#c{n} = :c{n}" for n in range(len(copies)))
        request = self.gateway.update_action(key, update, names, values, EXISTS)
        self.actions.append(Action(name, "Update", entry, key, EXISTS, request, refused=refused))

    def check(
        self, entity: Any, condition: Condition, *, name: str, refused: Callable[[], Exception] | None = None
    ) -> None:
        """A condition on an item the transaction does not write; `refused` is raised when it
        fails (default: NotFound naming the item)."""
        key = entity if isinstance(entity, tuple) else self._key(entity)
        request = self.gateway.check_action(key, condition)
        self.actions.append(Action(name, "ConditionCheck", entity, key, condition, request, refused=refused))

    @staticmethod
    def _key(entity: Any) -> Key:
        item = item_of(entity)
        return item["PK"], item["SK"]

    # --- commit ---

    def client_token(self) -> str:
        """The transaction's ClientRequestToken: the request's, derived on a re-run."""
        if self.attempt == 0:
            return self.token
        return hashlib.sha256(f"{self.token}:{self.attempt}".encode()).hexdigest()[:32]

    def _put_registrations(self) -> None:
        """One `Registrations` per fund and moment for the new registers that keep theirs."""
        for (fund_id, at), registers in self.registered.items():
            delta = summary_rule.add(*(summary_rule.delta(None, r) for r in registers))
            registrations = Registrations(fund_id, at, tuple(r.position_id for r in registers), delta)
            request = self.gateway.put_action(item_of(registrations), None)
            self.actions.append(Action("registrations", "Put", registrations, self._key(registrations), ANY, request))
        self.registered = {}

    def commit(self) -> None:
        self._put_registrations()
        for key, request in self.summaries.actions(self.gateway):
            self.actions.append(Action("fund summary", "Update", None, key, ANY, request))
        self.summaries.clear()
        if not self.actions:
            self.committed = True
            return
        token = self.client_token()
        requests = [action.request for action in self.actions]
        try:
            for attempt in range(table_gateway.TRANSACTION_CONFLICT_RETRIES + 1):
                try:
                    self.gateway.transact(requests, token)
                    break
                except TransactionCancelled as error:
                    retryable = set(error.reasons) & RETRYABLE_REASONS and not error.condition_failed
                    if not retryable or attempt == table_gateway.TRANSACTION_CONFLICT_RETRIES:
                        raise
                    table_gateway.backoff(attempt)
        except (TransactionCancelled, IdempotencyMismatch) as error:
            raise self._failure(error) from error
        self.committed = True
        self.actions = []


class ImportUnitOfWork(UnitOfWork):
    """An import's unit: its token (from the file) is stamped on what it writes, while every
    transaction goes under a new ClientRequestToken (the same file imported into two tables
    within the token's 10 minutes would otherwise be refused as an idempotency mismatch)."""

    def client_token(self) -> str:
        return uuid.uuid4().hex

    def _raise_if_landed(self, checks: int) -> None:
        """No re-read: a re-run of the file finds what landed by validating it again."""

    def companions_of(self, entity: Any) -> list[Any]:
        """An import's new documents bring their months and search items along; their funds'
        catalog entries came with the positions the import registered, before publishing
        (`ImportRepository.catalog_items`)."""
        return [c for c in super().companions_of(entity) if not isinstance(c, FundCatalogEntry)]
