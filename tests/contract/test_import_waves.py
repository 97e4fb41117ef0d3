"""How an import's new-document writes are scheduled (`imports.writing.RegisterPhase`), on
DynamoDB Local with several threads: in waves of groups, each group's register transaction is
built while the wave's entries land and sent only after all of them; one pool of threads serves
every wave. The end state is the one an import on one thread reaches."""

from __future__ import annotations

import threading

import pytest

from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.imports import ImportRepository
from fundportal.store.repositories.register import RegisterRepository
from imports import writing
from imports.services import import_apply, import_prepare
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db

POSITIONS, PER_GROUP, WORKERS = 20, 5, 2  # 4 groups in 2 waves of 2


@pytest.fixture
def recorded(local_backend, monkeypatch) -> list[tuple[str, str, bool]]:
    """Every group's landing and register transaction, in order: (what, thread, built ahead)."""
    monkeypatch.setattr(writing, "POSITIONS_PER_TRANSACTION", PER_GROUP)
    events: list[tuple[str, str, bool]] = []
    lock = threading.Lock()
    real_put, real_registers = ImportRepository.put_entries, writing.put_registers

    def put_entries(self, entries, token, extra=(), workers=1, progress=None):
        entries = list(entries)
        written = real_put(self, entries, token, extra, workers, progress)
        if entries:
            with lock:
                events.append(("land", threading.current_thread().name, False))
        return written

    def put_registers(uow, run, writes):
        with lock:
            events.append(("registers", threading.current_thread().name, bool(uow.actions)))
        real_registers(uow, run, writes)

    monkeypatch.setattr(ImportRepository, "put_entries", put_entries)
    monkeypatch.setattr(writing, "put_registers", put_registers)
    prepared = import_prepare(data=csv_bytes(notice_rows(POSITIONS)), filename="waves.csv")
    assert prepared.ok
    import_apply(prepared=prepared, user="importer", workers=WORKERS)
    return events


def test_a_waves_register_transactions_are_built_ahead_and_sent_after_its_entries(recorded):
    assert [what for what, _, _ in recorded] == ["land", "land", "registers", "registers"] * 2
    assert all(built for what, _, built in recorded if what == "registers")


def test_every_wave_runs_on_the_same_pool_of_threads(recorded):
    threads = {name for _, name, _ in recorded}
    assert len(threads) <= WORKERS
    assert len({name.rsplit("_", 1)[0] for name in threads}) == 1  # one pool: one name prefix


def test_the_import_counts_every_entry_once(recorded):
    registers = [RegisterRepository().get(f"NP_{n:03d}") for n in range(POSITIONS)]
    assert all(registers) and {r.revision for r in registers} == {1}
    assert verify_positions().differences == []
