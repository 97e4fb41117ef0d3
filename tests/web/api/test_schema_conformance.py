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
