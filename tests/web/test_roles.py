"""Each deployed role's code calls only the DynamoDB operations its IAM policy grants
(fundportal/store/roles.py): representative flows per role, their calls recorded and checked.
The plugin tests/iam_recording.py does the same over every suite and fails the run on a gap."""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import replace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from fundportal.store import instrumentation
from fundportal.store.gateway import TableGateway
from fundportal.store.roles import GRANTS, Role, iam_actions
from fundportal.store.schema import MONTH_INDEX
from imports.services import checksum_of, import_apply, import_prepare
from tests import iam_recording
from tests.conftest import signed_in_editor
from tests.iam_recording import acting_as
from tests.notices import csv_bytes, notice_rows
from tests.web.urlmap import analyst_routes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]


def called(records: list[instrumentation.RequestRecord]) -> tuple[set[str], set[str]]:
    """(direct IAM actions, TransactWriteItems part actions) of the recorded calls."""
    direct: set[str] = set()
    parts: set[str] = set()
    for record in records:
        more_direct, more_parts = iam_actions(record.operation, record.parts)
        direct |= more_direct
        parts |= more_parts
    return direct, parts


def command(*args: str, **options) -> None:
    call_command(*args, stdout=io.StringIO(), stderr=io.StringIO(), **options)


def test_web_pages_edits_and_the_web_import_preview_stay_within_the_web_policy(
    draft_sample, django_user_model, staff_client
):
    editor = signed_in_editor(django_user_model, "role-editor")
    with instrumentation.collect() as web:
        for route in analyst_routes():
            editor.get(route.build())
        for page in ("/admin/dynamodb/", "/admin/dynamodb/table/", "/healthz"):
            assert staff_client.get(page).status_code == 200
        recorded = editor.post(
            "/documents/DOC001/entries/new/",
            {
                "kind": "capital_call",
                "position_id": "POSITION_9",
                "fund_id": "FUND_A",
                "investor_id": "INVESTOR_9",
                "amount": "100.00",
                "status": "Pending",
            },
        )
        data = csv_bytes(notice_rows(2))
        editor.post("/documents/import/", {"file": SimpleUploadedFile("n.csv", data)})
        imported = editor.post("/documents/import/confirm/", {"checksum": checksum_of(data), "filename": "n.csv"})
        progress = editor.get(imported.url)
    assert recorded.status_code == 302 and imported.url.startswith("/documents/import/jobs/")
    assert 'data-state="done"' in progress.content.decode()  # the job (not the page) wrote it
    direct, parts = called(web.records)
    assert {"Query", "GetItem"} <= direct  # pages read
    assert "BatchWriteItem" not in direct  # the import's writes are the worker's
    assert {"PutItem", "ConditionCheckItem"} <= parts  # edits are transactions
    assert GRANTS[Role.WEB].lacks(direct, parts) == []


def test_operator_commands_stay_within_the_operator_policy(backend, tmp_path):
    notice = tmp_path / "notice.csv"
    notice.write_bytes(csv_bytes(notice_rows(2)))
    TableGateway(backend.table).update_table(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": MONTH_INDEX}}])
    with instrumentation.collect() as operator:
        command("create_table")  # builds the missing index
        command("seed_demo", sample=True)
        command("import_notice", str(notice))
        command("verify_positions")
        command("backfill_indexes")
        command("access_patterns")
    direct, parts = called(operator.records)
    assert {"DescribeTable", "UpdateTable", "Query", "BatchWriteItem", "Scan"} <= direct
    assert "PutItem" in parts
    assert GRANTS[Role.OPERATOR].lacks(direct, parts) == []


def test_an_import_job_records_its_calls_as_the_worker_even_inside_a_page(sample, django_user_model, monkeypatch):
    monkeypatch.setattr(iam_recording, "direct_calls", defaultdict(dict))
    monkeypatch.setattr(iam_recording, "part_calls", defaultdict(dict))
    editor = signed_in_editor(django_user_model, "job-editor")
    data = csv_bytes(notice_rows(2))
    editor.post("/documents/import/", {"file": SimpleUploadedFile("n.csv", data)})
    editor.post("/documents/import/confirm/", {"checksum": checksum_of(data), "filename": "n.csv"})
    assert "BatchWriteItem" in iam_recording.direct_calls[Role.WORKER]
    assert "BatchWriteItem" not in iam_recording.direct_calls[Role.WEB]
    assert iam_recording.violations() == []


def test_the_import_writing_path_stays_within_the_worker_policy(backend):
    prepared = import_prepare(data=csv_bytes(notice_rows(3)), filename="notice.csv")
    with instrumentation.collect() as worker:
        import_apply(prepared=prepared, user="worker", workers=1)
    direct, parts = called(worker.records)
    assert "BatchWriteItem" in direct
    assert GRANTS[Role.WORKER].lacks(direct, parts) == []


def test_a_call_outside_the_declaration_is_reported():
    assert GRANTS[Role.WEB].lacks({"Query", "BatchWriteItem"}, {"PutItem"}) == ["BatchWriteItem"]
    without_scan = replace(GRANTS[Role.OPERATOR], actions=GRANTS[Role.OPERATOR].actions - {"Scan"})
    assert without_scan.lacks({"Query", "Scan"}, ()) == ["Scan"]
    # UpdateItem is granted inside a transaction (the fund summaries' ADD), never on its own.
    assert GRANTS[Role.WORKER].lacks(set(), {"UpdateItem"}) == []
    assert GRANTS[Role.WORKER].lacks({"UpdateItem"}, set()) == ["UpdateItem"]


def test_transaction_parts_are_authorised_as_their_item_actions():
    assert iam_actions("TransactWriteItems", ("ConditionCheck", "Delete", "Put")) == (
        set(),
        {"ConditionCheckItem", "DeleteItem", "PutItem"},
    )
    assert iam_actions("TransactWriteItems", ("Update",)) == (set(), {"UpdateItem"})
    assert iam_actions("Query") == ({"Query"}, set())


def test_the_outermost_entry_point_decides_the_role(sample, monkeypatch):
    monkeypatch.setattr(iam_recording, "direct_calls", defaultdict(dict))
    monkeypatch.setattr(iam_recording, "part_calls", defaultdict(dict))
    with acting_as(Role.WORKER, "a job"):
        command("document_history", "DOC001")  # a command run by the job: the job's calls
    Client().get("/healthz")  # a page on its own: the web's
    assert set(iam_recording.direct_calls) == {Role.WORKER, Role.WEB}
    assert set(iam_recording.direct_calls[Role.WORKER].values()) == {"a job"}
    assert "/healthz" in next(iter(iam_recording.direct_calls[Role.WEB].values()))
