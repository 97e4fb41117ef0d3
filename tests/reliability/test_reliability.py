"""DynamoDB down: every page that needs DynamoDB answers a 503 page naming the problem (never a
stack trace), /healthz answers 503, the site recovers by itself when DynamoDB is back (with
every write kept: restart persistence), and the commands exit non-zero with one line. Items
over 400 KB are refused before any request."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command

from documents import approval, services
from fundportal.domain.errors import ItemTooLarge
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.dynamodb_local import free_port, start
from fundportal.messages import describe
from fundportal.store import tables
from fundportal.store.instrumentation import collect
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository, PositionRepository
from tests.web.urlmap import analyst_routes

pytestmark = pytest.mark.local_only

BASE_DIR = Path(__file__).resolve().parents[2]  # the project (manage.py), above tests/reliability/
# Commands that need DynamoDB, with valid arguments (everything else about them is fine).
COMMANDS = {
    "create_table": [],
    "seed_demo": ["--sample"],
    "document_history": ["DOC001"],
    "position_report": ["POSITION_1"],
    "access_patterns": [],
}


@pytest.fixture
def editor_client(client, django_user_model):
    user = django_user_model.objects.create_user("editor", password="editor-pass-123", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="edit_fund_data"))
    client.force_login(user)
    return client


def get_pages(client) -> dict[str, tuple[int, int, str]]:
    """GET every analyst page: path -> (status, DynamoDB requests made, body)."""
    pages = {}
    for route in analyst_routes():
        path = route.build()
        response = client.get(path)
        requests = response.wsgi_request.dynamodb.count
        body = response.content.decode(errors="replace") if not response.streaming else ""
        pages[path] = (response.status_code, requests, body)
    return pages


def write_some(repository: DocumentRepository) -> dict:
    restated = services.document_restate(
        document_id="DOC001", expected_revision=2, changes={"title": "Restated before the restart"}, user="ana"
    )
    entry = repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1")
    services.entry_put(entry=replace(entry, amount=Decimal("123456.78")), user="ana")
    # DOC002 is approved: the change counts once another user approves it.
    approval.document_submit(document_id="DOC002", user="ana")
    approval.document_approve(document_id="DOC002", user="ben")
    return {"revision": restated.revision, "amount": Decimal("123456.78")}


def assert_persisted(written: dict) -> None:
    """Restart persistence (the `make run` DynamoDB Local: -sharedDb -dbPath): items and indexes."""
    repository = DocumentRepository()
    status = tables.describe()
    assert status.active and not status.problems
    current, history = repository.all_versions("DOC001")
    assert (current.revision, current.title) == (written["revision"], "Restated before the restart")
    assert [d.revision for d in history] == [2, 1]
    assert repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1").amount == written["amount"]
    amounts = {e.document_id: e.amount for e in PositionRepository().entries("POSITION_1", Kind.CAPITAL_CALL)}
    assert amounts["DOC002"] == written["amount"]
    assert repository.get_via_index("DOC001").title == "Restated before the restart"
    assert {a.action for a in repository.audit_trail("DOC001")} == {"restate"}


def test_pages_503_while_dynamodb_is_down_and_recover_by_themselves(editor_client, settings, tmp_path):
    """Uses DynamoDB Local as `make run` does (persistent, -sharedDb -dbPath), so the restart
    also proves that writes, the table and its indexes survive it."""
    port = free_port()
    server = start(port, db_path=tmp_path)
    try:
        settings.DYNAMODB_ENDPOINT_URL = server.endpoint
        settings.DYNAMODB_TABLE = "reliability_test"
        tables.create()
        call_command("seed_demo", sample=True, stdout=open(os.devnull, "w"))
        written = write_some(DocumentRepository())
        up = get_pages(editor_client)
        assert editor_client.get("/healthz").status_code == 200
        needs_dynamodb = {path for path, (status, requests, _) in up.items() if requests and status < 500}
        assert "/documents/" in needs_dynamodb and "/documents/DOC001/" in needs_dynamodb
        assert all(status < 500 for status, _, _ in up.values()), {p: s for p, (s, _, _) in up.items()}

        server.stop()
        down = get_pages(editor_client)
        for path in needs_dynamodb:
            status, _, body = down[path]
            assert status == 503, f"{path} answered {status} with DynamoDB down"
            assert "Temporarily unavailable" in body, path  # plain words; the cause is logged
            assert "Traceback" not in body and "botocore" not in body and "reliability_test" not in body, path
        health = editor_client.get("/healthz")
        assert health.status_code == 503
        assert health.json()["status"] == "unavailable"

        server = start(port, db_path=tmp_path)  # back, same port, same data; no reset anywhere
        assert editor_client.get("/healthz").status_code == 200
        again = get_pages(editor_client)
        assert {p: s for p, (s, _, _) in again.items()} == {p: s for p, (s, _, _) in up.items()}
        assert_persisted(written)
    finally:
        server.stop()


@pytest.fixture
def dynamodb_down(settings):
    settings.DYNAMODB_ENDPOINT_URL = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    return settings


def project_commands() -> list[str]:
    from django.core.management import get_commands

    return sorted(name for name, app in get_commands().items() if name in COMMANDS and app != "django.core")


def test_commands_fail_with_one_line_when_dynamodb_is_down(dynamodb_down):
    commands = project_commands()
    assert {"create_table", "seed_demo"} <= set(commands)
    for name in commands:
        with pytest.raises(CommandError) as raised:
            call_command(name, *COMMANDS[name], stdout=open(os.devnull, "w"), stderr=open(os.devnull, "w"))
        message = str(raised.value)
        assert "\n" not in message.strip(), f"{name}: {message!r}"
        assert "DynamoDB" in message or "unavailable" in message.lower(), f"{name}: {message!r}"


def test_command_process_exits_non_zero_with_one_line(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fundportal.settings.local",
        "DJANGO_SECRET_KEY": "x" * 60,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DYNAMODB_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}",
        "DYNAMODB_MAX_ATTEMPTS": "1",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "seed_demo", "--sample"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip() and " ERROR fundportal." not in line]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("CommandError: ") and "cannot reach DynamoDB" in lines[0]
    assert "Traceback" not in result.stderr


def test_items_over_400_kb_are_refused_before_any_request(backend):
    repository = DocumentRepository()
    huge = Document(document_id="BIG", title="x" * 410_000, fund_id="F", as_of_date=date(2025, 9, 30))
    with collect() as requests, pytest.raises(ItemTooLarge) as raised:
        services.document_create(document=huge, user="editor")
    assert requests.count == 0
    assert "DynamoDB accepts at most 409,600 bytes per item" in describe(raised.value)
    with collect() as requests, pytest.raises(ItemTooLarge):
        repository.bulk_load([to_item(huge)])
    assert requests.count == 0
