"""Faults, concurrency and Jepsen-style tests: DynamoDB Local only (moto tears transactions
under threads and accepts requests DynamoDB rejects)."""

import pytest


@pytest.fixture
def backend(local_backend):
    return local_backend
