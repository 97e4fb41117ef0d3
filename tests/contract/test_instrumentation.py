"""Request accounting: every DynamoDB call lands in the collectors of its context, with its
operation, index, items, consumed capacity and milliseconds; the pytest helper reads like
Django's assertNumQueries."""

from __future__ import annotations

import threading
from datetime import date

import pytest

from documents import services
from fundportal.domain.errors import AlreadyExists, NotFound
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.messages import describe
from fundportal.store.errors import StoreUnavailable
from fundportal.store.gateway import call
from fundportal.store.instrumentation import Collector, PageLogBuffer, RequestRecord, collect
from fundportal.store.schema import POSITION_INDEX
from tests.request_counts import assert_dynamodb_requests


def test_collector_records_operation_index_items_units_and_ms(sample, repo, positions):
    with collect() as requests:
        repo.overview("DOC001")
        positions.page("POSITION_1")
        repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
        repo.position_in_document("DOC001", "POSITION_2")
    query, index_query, get, batch = requests.records
    assert (query.operation, query.index, query.items, query.key_condition) == ("Query", None, 10, "PK = :pk")
    # the position register sorts first, then the 5 entries
    assert (index_query.operation, index_query.index, index_query.items) == ("Query", POSITION_INDEX, 6)
    assert (get.operation, get.index, get.items) == ("GetItem", None, 1)
    assert (batch.operation, batch.items) == ("BatchGetItem", 3)
    assert all(r.ms > 0 and r.write_units == 0 for r in requests.records)
    if sample.name == "local":  # DynamoDB Local reports consumed capacity as DynamoDB does
        assert all(r.read_units > 0 for r in requests.records)
        assert requests.read_units == pytest.approx(sum(r.read_units for r in requests.records))
    assert requests.count == 4
    assert requests.operations == ["Query", "Query", "GetItem", "BatchGetItem"]
    assert requests.ms == pytest.approx(sum(r.ms for r in requests.records))


def test_writes_record_write_units(repo, backend):
    with collect() as requests:
        repo.bulk_load([{"PK": "DOCW", "SK": "DOCUMENT#LATEST", "EntityType": "Document"}], workers=1)
    (write,) = requests.records
    assert write.operation == "BatchWriteItem" and write.read_units == 0
    if backend.name == "local":
        assert write.write_units > 0


def test_nested_collectors_each_see_their_own_block(sample, repo):
    with collect() as outer:
        repo.get("DOC001")
        with collect() as inner:
            repo.get("DOC002")
            repo.capital_items("DOC001")
        repo.get("DOC001")
    assert inner.operations == ["GetItem", "Query"]
    assert outer.operations == ["GetItem", "GetItem", "Query", "GetItem"]
    assert outer.records[1:3] == inner.records  # the same records, not copies with new figures


def test_nothing_is_recorded_outside_a_block_or_in_a_sibling_block(sample, repo):
    with collect() as first:
        repo.get("DOC001")
    repo.get("DOC001")
    with collect() as second:
        pass
    assert first.count == 1 and second.count == 0


def test_another_threads_calls_do_not_leak_into_this_collector(sample, repo):
    with collect() as mine:
        worker = threading.Thread(target=repo.get, args=("DOC002",))
        worker.start()
        worker.join()
        repo.get("DOC001")
    assert mine.count == 1


def test_failed_calls_are_recorded_too(sample, repo):
    """A refused request still costs a round trip (and capacity): it is counted."""
    with collect() as requests, pytest.raises(NotFound):
        repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_9")
    assert requests.operations == ["GetItem"]
    with collect() as requests, pytest.raises(AlreadyExists):
        services.document_create(
            document=Document(document_id="DOC001", title="again", as_of_date=date(2025, 9, 30)), user="tester"
        )
    # The create's looks at the partition (not empty: is the document there?) and at the id's
    # spellings, then the transaction: cancelled by its condition, still counted.
    assert requests.operations == ["Query", "GetItem", "Query", "TransactWriteItems"]


def test_unreachable_store_is_recorded_and_typed(settings):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"  # discard port: connection refused
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    with collect() as requests, pytest.raises(StoreUnavailable) as raised:
        call("GetItem", TableName="t", Key={"PK": {"S": "A"}, "SK": {"S": "B"}})
    assert "cannot reach DynamoDB" in describe(raised.value)
    ((record,),) = [requests.records]
    assert (record.operation, record.items, record.read_units) == ("GetItem", 0, 0)


# --- assert_dynamodb_requests ---------------------------------------------------------------------


def test_assert_requests_passes_on_the_exact_count(sample, repo, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]) as requests:
        repo.overview("DOC001")
    assert isinstance(requests, Collector) and requests.count == 1


def test_assert_requests_fails_with_a_readable_message(sample, repo):
    with pytest.raises(AssertionError) as failed, assert_dynamodb_requests(1):
        repo.get("DOC001")
        repo.position_in_document("DOC001", "POSITION_1")
    message = str(failed.value)
    assert message.startswith("expected 1 DynamoDB requests, got 2 DynamoDB requests:")
    assert "GetItem index=- items=1" in message
    assert "BatchGetItem index=- items=3" in message


def test_assert_requests_fails_when_the_operations_differ(sample, repo):
    with pytest.raises(AssertionError) as failed, assert_dynamodb_requests(1, ["Query"]):
        repo.get("DOC001")
    assert "1 DynamoDB requests:" in str(failed.value) and "GetItem" in str(failed.value)


def test_assert_requests_catches_an_unexpected_request(sample, repo):
    with pytest.raises(AssertionError, match="expected 0 DynamoDB requests, got 1"), assert_dynamodb_requests(0):
        repo.get("DOC001")


def test_describe_lists_every_call():
    collector = Collector(
        [
            RequestRecord("Query", "GSI_Position_Document", 5, 0.5, 0, 3.3, "GSI2_PK = :pk"),
            RequestRecord("TransactWriteItems", None, 0, 0, 8.0, 12.0),
        ]
    )
    assert collector.describe().splitlines() == [
        "2 DynamoDB requests:",
        "  Query index=GSI_Position_Document items=5 rcu=0.5 wcu=0 3.3 ms",
        "  TransactWriteItems index=- items=0 rcu=0 wcu=8 12.0 ms",
    ]
    assert (collector.read_units, collector.write_units) == (0.5, 8.0)


def test_page_log_keeps_the_latest_pages_newest_first():
    log = PageLogBuffer(size=2)
    for path, calls in (("/a/", 1), ("/b/", 2), ("/c/", 1)):
        collector = Collector([RequestRecord("GetItem", None, 1, 0.5, 0, 1.0)] * calls)
        log.add("GET", path, 200, "analyst", collector)
    latest = log.latest()
    assert [(p.path, p.requests, p.flagged) for p in latest] == [("/c/", 1, False), ("/b/", 2, True)]
    assert latest[1].read_units == 1.0 and latest[1].operations == ("GetItem", "GetItem")


def test_page_log_reaches_the_shared_cache_only_when_a_flush_is_due(db):
    """A page only appends; `flush_due` (run after each response) moves the lines at most once
    every `flush_seconds`; another worker's buffer reads them from the shared cache."""
    writer, reader = PageLogBuffer(flush_seconds=3600), PageLogBuffer()
    writer.clear()
    one_get = Collector([RequestRecord("GetItem", None, 1, 0.5, 0, 1.0)])
    writer.add("GET", "/a/", 200, "analyst", one_get)
    assert reader.latest() == []  # appended, not yet flushed
    writer.flush_due()  # the first flush is due at once
    assert [p.path for p in reader.latest()] == ["/a/"]
    writer.add("GET", "/b/", 200, "analyst", one_get)
    writer.flush_due()  # within the hour: not due
    assert [p.path for p in reader.latest()] == ["/a/"]
    writer.flush_seconds = 0
    writer.flush_due()
    assert [p.path for p in reader.latest()] == ["/b/", "/a/"]
