"""One botocore client serves every table: a client names no table (each request does), so
switching `DYNAMODB_TABLE` (a test's table, a bench round's fresh table) makes no new client,
while a change that does reach the client (its endpoint) does."""

from __future__ import annotations

from fundportal.store.client import get_client, reset_clients


def test_switching_the_table_keeps_the_client(settings):
    reset_clients()
    settings.DYNAMODB_TABLE = "first_table"
    first = get_client()
    settings.DYNAMODB_TABLE = "second_table"
    assert get_client() is first


def test_another_endpoint_gets_its_own_client(settings):
    reset_clients()
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:1"
    first = get_client()
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:2"
    second = get_client()
    assert second is not first and second.meta.endpoint_url == "http://127.0.0.1:2"
