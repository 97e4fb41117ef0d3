"""An import's bulk writes and register transactions go out under the pacer the settings ask for
(`imports/pacing.py`), and only inside the import: other writes are never paced."""

from __future__ import annotations

import pytest

from fundportal.store import pacing
from fundportal.store.gateway import TableGateway
from fundportal.store.pacing import PartitionPacer
from imports.services import import_apply, import_prepare
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def pacers_seen(monkeypatch) -> list[object]:
    """The pacer in force at each BatchWriteItem and TransactWriteItems the gateway sends."""
    seen: list[object] = []
    real_batch, real_transact = TableGateway.batch_write, TableGateway.transact

    def batch_write(self, items, **options):
        seen.append(pacing.current())
        return real_batch(self, items, **options)

    def transact(self, actions, token):
        seen.append(pacing.current())
        return real_transact(self, actions, token)

    monkeypatch.setattr(TableGateway, "batch_write", batch_write)
    monkeypatch.setattr(TableGateway, "transact", transact)
    return seen


def test_an_import_writes_its_entries_and_registers_under_one_adaptive_pacer(backend, settings, pacers_seen):
    settings.DYNAMODB_IMPORT_PACING = "adaptive"
    prepared = import_prepare(data=csv_bytes(notice_rows(5)), filename="n.csv")
    import_apply(prepared=prepared, user="importer")
    during = [p for p in pacers_seen if p is not None]
    assert during and all(isinstance(p, PartitionPacer) for p in during)
    assert len({id(p) for p in during}) == 1  # one pacer for the whole import, its threads included
    assert pacing.current() is None  # and none after it


def test_an_import_with_pacing_off_writes_without_a_pacer(backend, settings, pacers_seen):
    settings.DYNAMODB_IMPORT_PACING = "off"
    prepared = import_prepare(data=csv_bytes(notice_rows(5)), filename="n.csv")
    import_apply(prepared=prepared, user="importer")
    assert pacers_seen and all(p is None for p in pacers_seen)
