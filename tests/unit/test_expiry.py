"""Which items carry a time to live, and when they expire (fundportal/store/mapping/expiry.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fundportal.domain.kinds import THROWAWAY_PREFIX
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.ops.sample import sample_items
from fundportal.store.mapping.entities import to_item
from fundportal.store.mapping.expiry import (
    PUBLISHED_RUN_LIFETIME,
    THROWAWAY_LIFETIME,
    epoch,
    published_run_expiry,
    throwaway_expiry,
)
from fundportal.store.repositories.imports import ImportRun
from fundportal.store.schema import TTL_ATTRIBUTE

STARTED = datetime(2026, 3, 31, 9, 30, tzinfo=UTC)


def test_the_seeds_items_never_expire():
    assert all(TTL_ATTRIBUTE not in item for item in sample_items())


def test_the_explainers_throwaway_items_expire_a_day_later_to_the_hour():
    document = to_item(Document(document_id=f"{THROWAWAY_PREFIX}abc", title="explain"))
    entry = to_item(
        CapitalCall(document_id="DOC001", position_id=f"{THROWAWAY_PREFIX}P-abc", fund_id="F", investor_id="I")
    )
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    for item in (document, entry):
        assert item[TTL_ATTRIBUTE] in {epoch(now + THROWAWAY_LIFETIME), epoch(now + timedelta(hours=1, days=1))}
    assert throwaway_expiry(Document(document_id="DOC001"), STARTED) is None
    assert TTL_ATTRIBUTE not in to_item(Document(document_id="EXPLAINED", title="an ordinary id"))


def test_a_run_expires_only_once_published_and_at_the_same_time_on_every_run():
    run = ImportRun("0" * 16, "0" * 64, STARTED, "importer", ("NOTICE_1",))
    assert TTL_ATTRIBUTE not in run.to_item()
    published = ImportRun("0" * 16, "0" * 64, STARTED, "importer", ("NOTICE_1",), published=True).to_item()
    assert published[TTL_ATTRIBUTE] == epoch(STARTED + PUBLISHED_RUN_LIFETIME) == published_run_expiry(STARTED)
    assert ImportRun.from_item(published).published


def test_epoch_takes_a_naive_time_as_utc():
    assert epoch(datetime(1970, 1, 2)) == 86_400 == epoch(datetime(1970, 1, 2, tzinfo=UTC))
