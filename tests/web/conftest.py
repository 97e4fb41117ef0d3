"""Views and commands: one backend (moto, fast); the data layer's behaviour on both backends
is pinned by tests/contract."""

import pytest


@pytest.fixture
def backend(moto_backend):
    return moto_backend
