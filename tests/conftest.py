"""Fixtures: DynamoDB Local (one in-memory server per session), moto, a fresh table per test
on either backend, the seed sample, signed-in users."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

# Fake credentials for moto and DynamoDB Local; never real ones in tests.
for _name, _value in {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}.items():
    os.environ[_name] = _value

from hypothesis import settings as hypothesis_settings  # noqa: E402

from fundportal.dynamodb_local import DynamoDBLocal, start  # noqa: E402
from fundportal.ops.sample import sample_items  # noqa: E402
from fundportal.store import tables  # noqa: E402
from fundportal.store.client import reset_clients  # noqa: E402
from fundportal.store.gateway import TableGateway  # noqa: E402
from fundportal.store.repositories import DocumentRepository, PositionRepository  # noqa: E402
from tests.request_counts import assert_dynamodb_requests  # noqa: E402

# Records the DynamoDB operations each deployed role calls; fails the run on one its policy lacks.
pytest_plugins = ("tests.iam_recording",)

# No per-example deadline: a slow or busy CI machine must not turn a GC pause into a failure
# (timing belongs to bench/, not to tests).
hypothesis_settings.register_profile("fundportal", deadline=None)
hypothesis_settings.load_profile("fundportal")


@dataclass
class Backend:
    name: str  # "moto" or "local"
    endpoint: str | None
    table: str

    @property
    def repository(self) -> DocumentRepository:
        return DocumentRepository(TableGateway(self.table))

    @property
    def positions(self) -> PositionRepository:
        return PositionRepository(TableGateway(self.table))

    def workers(self, wanted: int) -> int:
        """Parallel bulk-load workers for this backend: moto is not thread-safe and loses
        concurrent writes, so parallel loading is exercised on DynamoDB Local only."""
        return wanted if self.name == "local" else 1


@pytest.fixture(scope="session")
def dynamodb_local() -> Iterator[DynamoDBLocal]:
    """AWS DynamoDB Local, in memory, on a free loopback port, for the whole session."""
    server = start(in_memory=True)
    yield server
    server.stop()


def _unique_table() -> str:
    return f"fund_test_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def moto_backend(settings) -> Iterator[Backend]:
    from moto import mock_aws

    with mock_aws():
        reset_clients()  # a client made outside the mock would not be intercepted
        settings.DYNAMODB_ENDPOINT_URL = None
        settings.DYNAMODB_TABLE = _unique_table()
        tables.create(settings.DYNAMODB_TABLE)
        yield Backend("moto", None, settings.DYNAMODB_TABLE)
    reset_clients()


@pytest.fixture
def local_backend(settings, dynamodb_local) -> Iterator[Backend]:
    settings.DYNAMODB_ENDPOINT_URL = dynamodb_local.endpoint
    name = settings.DYNAMODB_TABLE = _unique_table()
    tables.create(name)
    yield Backend("local", dynamodb_local.endpoint, name)
    settings.DYNAMODB_ENDPOINT_URL = dynamodb_local.endpoint
    tables.delete(name)


@pytest.fixture
def repo(backend) -> DocumentRepository:
    return backend.repository


@pytest.fixture
def sample(backend) -> Backend:
    """The seed article's 14 items loaded into the backend's table."""
    from django.core.management import call_command

    call_command("seed_demo", sample=True, stdout=open(os.devnull, "w"))
    return backend


@pytest.fixture
def draft_sample(backend) -> Backend:
    """The seed's sample with DOC001 and DOC002 loaded as drafts: their entries are edited
    directly (an approved document's only through approval), counted apart until approved."""
    from tests.draft_sample import load_sample_with_drafts

    load_sample_with_drafts()
    return backend


@pytest.fixture
def local_sample(local_backend) -> Backend:
    from django.core.management import call_command

    call_command("seed_demo", sample=True, stdout=open(os.devnull, "w"))
    return local_backend


@pytest.fixture
def local_draft_sample(local_backend) -> Backend:
    """`draft_sample` on DynamoDB Local only."""
    from tests.draft_sample import load_sample_with_drafts

    load_sample_with_drafts()
    return local_backend


@pytest.fixture
def django_assert_dynamodb_requests():
    """`with django_assert_dynamodb_requests(1): ...` fails unless exactly one call is made."""
    return assert_dynamodb_requests


@pytest.fixture(autouse=True)
def every_new_user_covers_all_funds(request):
    """Tests written before fund coverage sign in users who saw every fund: each user a test
    creates covers all funds, so those tests keep their intent. Tests of coverage itself are
    marked `coverage_as_granted` and grant exactly what they mean."""
    if request.node.get_closest_marker("coverage_as_granted"):
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    from fundportal.access.grants import grant_all_funds

    def grant(sender, instance, created, **kwargs):
        if created:
            grant_all_funds(user=instance)

    post_save.connect(grant, sender=get_user_model(), dispatch_uid="tests-all-funds")
    yield
    post_save.disconnect(sender=get_user_model(), dispatch_uid="tests-all-funds")


@pytest.fixture
def analyst(django_user_model):
    return django_user_model.objects.create_user("analyst", password="analyst-pass-123")


@pytest.fixture
def analyst_client(client, analyst):
    client.force_login(analyst)
    return client


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user("operator", password="operator-pass-123", is_staff=True)


@pytest.fixture
def staff_client(client, staff_user):
    client.force_login(staff_user)
    return client


SAMPLE_ITEM_COUNT = len(sample_items())


def signed_in_editor(django_user_model, username: str):
    """A test client signed in as a member of the fund editors group."""
    from django.contrib.auth.models import Group
    from django.test import Client

    from fundportal.models import EDITORS_GROUP

    user = django_user_model.objects.create_user(username, password=f"{username}-pass-123")
    user.groups.add(Group.objects.get(name=EDITORS_GROUP))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def editor_client(django_user_model):
    """A client signed in as "editor", who may edit fund data."""
    return signed_in_editor(django_user_model, "editor")
