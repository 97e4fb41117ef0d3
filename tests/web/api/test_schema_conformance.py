"""Schemathesis runs the API's own OpenAPI schema against a live server holding the sample:
generated calls to every endpoint get no server error, and every documented response conforms
to its schema. Kept fast: a few examples an endpoint, no shrinking."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from api import tokens
from api.site import api

pytestmark = pytest.mark.django_db(transaction=True)


# The schema the site serves at /api/v1/openapi.json (test_problems_and_paging checks it is served).
schema = schemathesis.openapi.from_dict(api.get_openapi_schema())


@pytest.fixture
def unthrottled(settings):
    settings.API_THROTTLE_RATE = "100000/min"  # the generated calls are not a client to throttle


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_its_own_schema(case, live_server, sample, analyst, unthrottled):
    token = tokens.issue(analyst, "schemathesis").token
    case.call_and_validate(
        base_url=live_server.url,
        headers={"Authorization": f"Bearer {token}"},
        checks=[not_a_server_error, response_schema_conformance],
    )


SAMPLE_IDS = {"document_id": "DOC001", "position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1"}
SAMPLE_QUERIES = {"/api/v1/positions": {"fund": "FUND_A"}}


def test_every_endpoint_answers_the_sample_within_its_schema(live_server, sample, analyst, unthrottled):
    """Generated ids mostly meet 404s: here every operation is called once with the sample's ids
    (and as of a date where it takes one), so each 200 response is checked against its schema."""
    token = tokens.issue(analyst, "schemathesis").token
    checked = 0
    for path, methods in schema.raw_schema["paths"].items():
        operation = schema[path]["GET"]
        names = [p["name"] for p in methods["get"].get("parameters", []) if p["in"] == "path"]
        query = dict(SAMPLE_QUERIES.get(path, {}))
        if any(p["name"] == "as_of" for p in methods["get"].get("parameters", [])):
            query["as_of"] = "2025-09-30"
        case = operation.Case(path_parameters={name: SAMPLE_IDS[name] for name in names}, query=query)
        response = case.call_and_validate(
            base_url=live_server.url,
            headers={"Authorization": f"Bearer {token}"},
            checks=[not_a_server_error, response_schema_conformance],
        )
        assert response.status_code == 200, (path, response.text[:300])
        checked += 1
    assert checked >= 15
