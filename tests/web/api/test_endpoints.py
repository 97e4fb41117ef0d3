"""The read endpoints on the seed sample: what each returns, money as exact strings, and the
same DynamoDB requests as the page it mirrors (asserted like assertNumQueries)."""

from __future__ import annotations

import pytest

from api.urls import READ_UNITS_HEADER, REQUESTS_HEADER

pytestmark = pytest.mark.django_db


def test_fund_lines_are_one_query_like_the_fund_page(sample, api_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = api_client.get("/api/v1/funds/FUND_A/lines")
    assert response.status_code == 200, response.content
    assert response[REQUESTS_HEADER] == "1"
    assert float(response[READ_UNITS_HEADER]) > 0
    body = response.json()
    first = body["lines"][0]
    assert first["position_id"] == "POSITION_1"
    assert first["commitment"] == {"amount": "2000000.00", "currency": "USD"}
    assert first["figures"]["called"] == {"amount": "1250000.00", "currency": "USD"}
    assert first["percent_called"].startswith("62.5")
    assert body["totals"][0]["commitment"] == {"amount": "3150000.00", "currency": "USD"}
    assert body["next"] is None
