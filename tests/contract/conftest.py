"""Contract tests: the only place the two-backend fixture runs (moto, then DynamoDB Local)."""

import pytest


@pytest.fixture(params=["moto", "local"])
def backend(request):
    """A fresh, empty table on moto and then on DynamoDB Local; where they differ, Local is right."""
    return request.getfixturevalue(f"{request.param}_backend")


@pytest.fixture
def positions(backend):
    """The position repository (pattern 7) on the backend's table."""
    return backend.positions
