"""A token for the analyst and a client that sends it."""

from __future__ import annotations

import pytest
from django.test import Client

from api import tokens


@pytest.fixture
def api_token(analyst) -> str:
    return tokens.issue(analyst, "notebook").token


@pytest.fixture
def api_client(api_token) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token}")
