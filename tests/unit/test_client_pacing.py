"""Background jobs write paced: inside `paced()` the DynamoDB client uses botocore's `adaptive`
retry mode (its token bucket slows the requests once the table throttles); pages keep the
`standard` mode, and a client made for one never serves the other."""

from __future__ import annotations

from fundportal.store import instrumentation
from fundportal.store.client import get_client, paced, reset_clients, retry_mode


def test_clients_made_inside_paced_use_the_adaptive_retry_mode(settings):
    reset_clients()
    page_client = get_client()
    with paced():
        job_client = get_client()
        assert retry_mode() == "adaptive"
    assert retry_mode() == "standard"
    assert job_client is not page_client
    assert job_client.meta.config.retries["mode"] == "adaptive"
    assert page_client.meta.config.retries["mode"] == "standard"
    assert get_client() is page_client


def test_the_jobs_retry_mode_is_a_setting(settings):
    settings.DYNAMODB_JOB_RETRY_MODE = "standard"
    with paced():
        assert retry_mode() == "standard"


def test_calls_detached_from_a_page_are_not_its_cost():
    with instrumentation.collect() as page:
        instrumentation.record(_record("Query"))
        with instrumentation.detached(), instrumentation.collect() as job:
            instrumentation.record(_record("BatchWriteItem"))
    assert [r.operation for r in page.records] == ["Query"]
    assert [r.operation for r in job.records] == ["BatchWriteItem"]


def _record(operation: str) -> instrumentation.RequestRecord:
    return instrumentation.RequestRecord(operation, None, 0, 0.0, 0.0, 0.0)
