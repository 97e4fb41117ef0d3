"""Notice imports under concurrency, on DynamoDB Local with real threads: web users
recording entries for the positions being imported lose nothing (the registers are written
conditioned on the revision read and retried), and two runs of the same file at once land it
once (same run record, same items, each register counted once, one publication)."""

from __future__ import annotations

import threading
from datetime import date
from decimal import Decimal

import pytest

from documents import selectors, services
from fundportal.domain.errors import AlreadyImported
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from imports.services import import_apply, import_prepare
from tests.notices import csv_bytes, notice_rows

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]

POSITIONS = 100  # 300 rows: three groups of positions, each its batch writes then its registers
WEB_THREADS = 3


def _run_all(targets) -> list[BaseException]:
    barrier = threading.Barrier(len(targets))
    errors: list[BaseException] = []

    def run(target) -> None:
        barrier.wait()
        try:
            target()
        except BaseException as error:  # asserted by the caller
            errors.append(error)

    threads = [threading.Thread(target=run, args=(t,)) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_web_writes_to_the_imported_positions_during_the_import_are_not_lost(local_backend):
    services.document_create(
        document=Document(document_id="WEB_DOC", fund_id="FUND_N", as_of_date=date(2026, 2, 27)), user="setup"
    )
    prepared = import_prepare(data=csv_bytes(notice_rows(POSITIONS)), filename="notice.csv")
    assert prepared.ok
    recorded: list[object] = []

    def web_user(t: int) -> None:
        for n in range(t, POSITIONS, 7):  # spread over every group of the import
            kind = NetAssetValue if n % 2 else CapitalCall
            entry = kind(
                document_id="WEB_DOC",
                position_id=f"NP_{n:03d}",
                fund_id="FUND_N",
                investor_id=f"NI_{n:03d}",
                amount=Decimal(f"{1000 + n}.00"),
                status="Completed",
            )
            recorded.append(services.entry_record(entry=entry, user=f"web{t}"))

    importer = lambda: import_apply(prepared=prepared, user="importer", workers=8)  # noqa: E731
    errors = _run_all([importer, *(lambda t=t: web_user(t) for t in range(WEB_THREADS))])
    assert errors == []

    assert len(selectors.document_overview(document_id="NOTICE_1").rows) == POSITIONS
    assert len(recorded) == sum(len(range(t, POSITIONS, 7)) for t in range(WEB_THREADS))
    # Every register equals all of its position's entries, both documents: no lost update.
    assert verify_positions().differences == []
    web = {e.position_id for e in recorded}
    for position in (f"NP_{n:03d}" for n in range(POSITIONS)):
        register = RegisterRepository().get(position)
        assert register.revision == 1 + (position in web), position  # the import once, each web write once


def test_two_runs_of_the_same_file_at_once_land_it_once(local_backend):
    data = csv_bytes(notice_rows(POSITIONS))
    first, second = (import_prepare(data=data, filename="notice.csv") for _ in range(2))
    assert first.ok and second.ok
    errors = _run_all(
        [
            lambda: import_apply(prepared=first, user="alice", workers=4),
            lambda: import_apply(prepared=second, user="bob", workers=4),
        ]
    )
    # The loser is told who imported it, never that it wrote the rows itself.
    (lost,) = errors
    assert isinstance(lost, AlreadyImported) and lost.documents == ("NOTICE_1",)
    record = import_prepare(data=data, filename="notice.csv").done
    assert lost.by in {"alice", "bob"} and lost.by == record["by"]  # the winner, named to the loser
    page = selectors.document_overview(document_id="NOTICE_1")
    assert len(page.rows) == POSITIONS
    assert local_backend.repository.count_partition("NOTICE_1") == 3 * POSITIONS + 1
    (audit,) = local_backend.repository.audit_trail("NOTICE_1")  # published once
    assert audit.action == "import"
    # Both runs stamped the first run's time and user: the entries are the same whoever wrote them.
    entries = [c.entry for r in page.rows for c in r.cells if c]
    assert len({(e.updated_at, e.updated_by) for e in entries}) == 1
    assert verify_positions().differences == []
    assert {RegisterRepository().get(f"NP_{n:03d}").revision for n in range(POSITIONS)} == {1}
    assert import_prepare(data=data, filename="notice.csv").done is not None
