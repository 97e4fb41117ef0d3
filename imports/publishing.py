"""Publishing an import, its last step: the new documents appear (each with its month listing and
search items), one audit item per document of the file, the import record, and the run marked
published. Every entry and register was written before it starts.

- **One transaction** when it fits DynamoDB's 100 actions (nearly every notice): the file's
  documents all appear at once.
- **In parts** when it does not (25 new documents in 25 months need 103 actions): each part is
  one transaction of at most 100 actions, the run still unpublished (a check), the part's own item
  (`PublishedPart`, put as new), its documents (a new one with its companions; an existing one
  checked) and their audit items; a last transaction puts the import record and marks the run
  published. A part's documents appear whole: their entries are all in and counted by their
  registers before the first part, so a reader may see some documents of the file before the
  others, never a document missing entries. Parts are cut from the run's list of new documents
  (fixed by its first run) and the file's documents in file order, so every run of the file
  cuts the same parts: a re-run (a killed job) reads which part items exist (one BatchGetItem)
  and publishes the others, and of two runs publishing the same part at once one puts its item
  and the other moves on.

No limit is left for the preview to check: a part holds at least one document, and one
document's actions (its item, month listing and search items, its audit item, the run check and
the part's item) are far below 100.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import AlreadyExists
from fundportal.store.repositories.imports import (
    MAX_TRANSACTION_ITEMS,
    UNPUBLISHED,
    ImportRecord,
    ImportRepository,
    ImportRun,
    PublishedPart,
)
from fundportal.store.uow import EXISTS, NEW, UnitOfWork

from .validation_values import DocumentPlan
from .writing import PublishedElsewhere, Stamp, request_token

PART_ACTION = "publishing part"
PART_OVERHEAD = 2  # every part's check of the run and its own item
CLOSING_ACTIONS = 2  # the import record and the run marked published


@dataclass(frozen=True, slots=True)
class Publication:
    """What publishing one run of a file writes, and as whom."""

    filename: str
    checksum: str
    rows: int
    plans: tuple[DocumentPlan, ...]
    stamp: Stamp
    run: ImportRun
    user: str

    def is_new(self, plan: DocumentPlan) -> bool:
        """New to this import: created by it (the run's list), whether or not a part of an
        earlier run published it already."""
        return plan.document.document_id in self.run.new_documents


class Publisher:
    """Publishes one run of a file in one transaction or in parts (the module's docstring)."""

    def __init__(self, publication: Publication, repository: ImportRepository) -> None:
        self.publication, self.repository = publication, repository
        self.parts = self._cut()

    @property
    def in_parts(self) -> bool:
        return self.parts is not None

    def resumes(self, new_ids: tuple[str, ...]) -> bool:
        """The file's new documents (`new_ids`, as validated now) are the run's, but for those a
        part of an earlier run of this file published (one BatchGetItem of the part items)."""
        run = self.publication.run
        missing = set(run.new_documents) - set(new_ids)
        if not set(new_ids) <= set(run.new_documents) or not missing or not self.in_parts:
            return False
        done = self.repository.published_parts(run.marker, len(self.parts or ()))
        published = {p.document.document_id for n in done for p in (self.parts or ())[n]}
        return missing <= published

    def publish(self) -> None:
        """Publish what is not published yet. Raises what the unit of work raises (AlreadyExists,
        NotFound, TransactionCancelled): the caller tells a concurrent run of the file from a
        document someone else changed by the import record."""
        if not self.in_parts:
            self._commit(self.publication.plans, closing=True)
            return
        parts = self.parts or []
        done = self.repository.published_parts(self.publication.run.marker, len(parts))
        for number, part in enumerate(parts):
            if number in done:
                continue
            try:
                self._commit(part, part=number)
            except PublishedElsewhere:
                break  # another run closed it: the closing transaction finds its record
            except AlreadyExists as error:
                if getattr(error, "action", None) != PART_ACTION:
                    raise
                # another run published this part first: its documents are in
        self._commit((), closing=True)

    # --- the transactions ---

    def _unit(self) -> UnitOfWork:
        return self.publication.stamp.unit_of_work(self.repository)

    def _commit(
        self, plans: tuple[DocumentPlan, ...] | list[DocumentPlan], *, closing: bool = False, part: int | None = None
    ) -> None:
        with self._unit() as uow:
            self._stage(uow, plans, closing=closing, part=part)
            uow.commit()

    def _stage(
        self,
        uow: UnitOfWork,
        plans: tuple[DocumentPlan, ...] | list[DocumentPlan],
        *,
        closing: bool = False,
        part: int | None = None,
    ) -> None:
        publication = self.publication
        stamp, run = publication.stamp, publication.run
        if part is not None:
            uow.check(run, UNPUBLISHED, name="import run", refused=PublishedElsewhere)
            ids = tuple(p.document.document_id for p in plans)
            uow.put(PublishedPart(run.marker, part, ids, run.at), expect=NEW, name=PART_ACTION)
        for plan in plans:
            if publication.is_new(plan):  # with its companions: its month listed, its id and fund's found
                document = replace(plan.document, updated_at=stamp.at, updated_by=stamp.by)
                uow.put(document, expect=NEW, name="document", stamped=True, companions=True)
            else:
                uow.check(plan.document, EXISTS, name="document")
        at = datetime.now(stamp.at.tzinfo)
        for plan in plans:
            uow.put(self._audit(plan, at), expect=NEW, name="audit")
        if closing:
            documents = [plan.document.document_id for plan in publication.plans]
            record = ImportRecord(
                publication.checksum, publication.filename, publication.rows, documents, stamp.at, publication.user
            )
            uow.put(record, expect=NEW, name="import record")
            uow.put(replace(run, published=True), name="import run")

    def _audit(self, plan: DocumentPlan, at: datetime) -> AuditEntry:
        publication, document_id = self.publication, plan.document.document_id
        return AuditEntry(
            document_id,
            at,
            publication.user,
            "import",
            f"File {publication.filename}",
            {
                "file": [None, publication.filename],
                "rows": [None, plan.rows],
                "checksum": [None, publication.checksum],
            },
            request_token(publication.stamp.token, "audit", document_id, at.isoformat()),
        )

    # --- cutting the parts (staged on units of work that are never committed) ---

    def actions(self, plans: tuple[DocumentPlan, ...] | list[DocumentPlan], *, closing: bool = False) -> int:
        """How many actions publishing `plans` in one transaction takes (nothing is sent)."""
        with self._unit() as uow:
            self._stage(uow, plans, closing=closing)
            return len(uow.actions)

    def _cut(self) -> list[list[DocumentPlan]] | None:
        """None: the whole publication fits one transaction. Else the parts, each as many
        documents in file order as fit with the part's overhead."""
        plans = list(self.publication.plans)
        if self.actions(plans, closing=True) <= MAX_TRANSACTION_ITEMS:
            return None
        parts: list[list[DocumentPlan]] = [[]]
        for plan in plans:
            candidate = [*parts[-1], plan]
            if parts[-1] and self.actions(candidate) + PART_OVERHEAD > MAX_TRANSACTION_ITEMS:
                parts.append([plan])
            else:
                parts[-1] = candidate
        return parts
