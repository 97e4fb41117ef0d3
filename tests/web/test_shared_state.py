"""Behind a load balancer, any number of gunicorn workers and machines behave as one: sessions,
permissions and uploaded notices live in shared stores (the database, the storage API), never in
one worker's memory or one machine's disk path.

A real site: gunicorn servers with the local settings on loopback, DynamoDB Local with the seed
sample, one SQLite file as Django's database (sessions, users, the cache table) and one storage
directory, shared by every process. Server one has 2 workers, server two (another "machine")
1 worker. Requests that must reach both workers of server one go in pairs held open
(tests/web/shared_site.py `held_pair`), and the access log's worker pids confirm it."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.test.utils import override_settings

from bench.portal_server import sign_in, stop
from fundportal.dynamodb_local import free_port
from fundportal.store import tables
from tests.notices import csv_bytes, notice_rows
from tests.web.shared_site import (
    BASE_DIR,
    EDITOR,
    PASSWORD,
    REVOKED,
    VIEWER,
    Server,
    Visitor,
    hidden_value,
    multipart,
    start_server,
    wait_until_up,
)

pytestmark = pytest.mark.slow

PAGE = "/documents/DOC001/"
EDIT = "/documents/DOC001/restate/"


@dataclass
class Site:
    first: Server  # 2 workers
    second: Server  # another machine: 1 worker
    database: Path
    uploads: Path
    endpoint: str
    table: str
    env: dict[str, str]


@pytest.fixture(scope="module")
def site(dynamodb_local, tmp_path_factory) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp("shared-state")
    database, uploads = workdir / "db.sqlite3", workdir / "uploads"
    table = f"fund_shared_{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fundportal.settings.local",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_CACHE_URL": "dbcache://fundportal_cache",
        "DJANGO_IMPORTS_STORAGE": "filesystem",
        "DJANGO_IMPORTS_ROOT": str(uploads),
        "DYNAMODB_ENDPOINT_URL": dynamodb_local.endpoint,
        "DYNAMODB_TABLE": table,
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    prepared = subprocess.run(
        [sys.executable, "-m", "tests.web.shared_site"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert prepared.returncode == 0, prepared.stderr[-2000:]
    servers: list[Server] = []
    try:
        servers.append(start_server(env, free_port(), 2, workdir, "first"))
        servers.append(start_server(env, free_port(), 1, workdir, "second"))
        for server in servers:
            wait_until_up(server)
        yield Site(*servers, database, uploads, dynamodb_local.endpoint, table, env)
    finally:
        for server in servers:
            stop(server.process)
        with override_settings(DYNAMODB_ENDPOINT_URL=dynamodb_local.endpoint):
            tables.delete(table)


def _statuses(replies) -> list[int]:
    return [reply.status for reply in replies]


def _revoke_edit_permission(database: Path, username: str) -> None:
    """Take the user out of every group, straight in the shared database."""
    with sqlite3.connect(database, timeout=10) as connection:
        connection.execute(
            "DELETE FROM auth_user_groups WHERE user_id = (SELECT id FROM auth_user WHERE username = ?)",
            (username,),
        )
    connection.close()


def test_a_signed_out_session_is_refused_by_every_worker(site):
    server = site.first
    visitor = Visitor(sign_in(server.port, VIEWER, PASSWORD))
    assert _statuses(visitor.held_pair(server, "GET", f"{PAGE}?probe=signed-in")) == [200, 200]
    old_cookie = Visitor(dict(visitor.cookies))

    assert visitor.send(server, "POST", "/accounts/logout/").status == 302

    replies = [reply for _ in range(10) for reply in old_cookie.held_pair(server, "GET", f"{PAGE}?probe=signed-out")]
    assert len(replies) == 20
    assert all(r.status == 302 and r.location.startswith("/accounts/login/") for r in replies), _statuses(replies)
    workers = set(server.worker_pids("probe=signed-in"))
    assert len(workers) == 2 and set(server.worker_pids("probe=signed-out")) == workers


def test_a_revoked_permission_is_refused_by_every_worker_at_once(site):
    server = site.first
    editor = Visitor(sign_in(server.port, REVOKED, PASSWORD))
    # Allowed on both workers: the empty form is only refused as input (CSRF and permission pass).
    assert _statuses(editor.held_pair(server, "POST", f"{EDIT}?probe=granted")) == [400, 400]

    _revoke_edit_permission(site.database, REVOKED)

    replies = [reply for _ in range(5) for reply in editor.held_pair(server, "POST", f"{EDIT}?probe=revoked")]
    assert _statuses(replies) == [403] * 10
    assert not any("CSRF" in reply.body for reply in replies)
    assert len(set(server.worker_pids("probe=revoked"))) == 2


def _run_worker(site: Site) -> subprocess.CompletedProcess[str]:
    """A real `db_worker` process (another machine's worker service): runs the queued jobs, exits."""
    return subprocess.run(
        [sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay", "--interval", "0.1"],
        cwd=BASE_DIR,
        env=site.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_an_import_previewed_on_one_machine_is_confirmed_on_another_and_written_by_a_worker(site, settings):
    editor = Visitor(sign_in(site.first.port, EDITOR, PASSWORD))
    body, content_type = multipart({}, "notice.csv", csv_bytes(notice_rows(2)))
    preview = editor.send(site.first, "POST", "/documents/import/", body, content_type)
    assert preview.status == 200, preview.body[-2000:]
    checksum, filename = hidden_value(preview.body, "checksum"), hidden_value(preview.body, "filename")
    assert [path.name for path in site.uploads.iterdir()] == [f"{checksum}.csv"]

    form = urlencode({"checksum": checksum, "filename": filename}).encode()
    done = editor.send(site.second, "POST", "/documents/import/confirm/", form, "application/x-www-form-urlencoded")
    assert done.status == 302 and done.location.startswith("/documents/import/jobs/"), done.body[-2000:]
    queued = editor.send(site.first, "GET", done.location)  # the job's state is shared: any server shows it
    assert queued.status == 200 and 'data-state="queued"' in queued.body
    assert 'http-equiv="refresh"' in queued.body  # it updates itself until the job is done
    assert editor.send(site.first, "GET", "/documents/NOTICE_1/").status == 404  # nothing written yet

    worker = _run_worker(site)
    assert worker.returncode == 0, worker.stderr[-2000:]
    status = editor.send(site.second, "GET", f"{done.location}status.json")
    assert status.status == 200
    job = json.loads(status.body)
    assert (job["state"], job["rows_written"], job["rows_total"], job["documents"]) == ("done", 6, 6, ["NOTICE_1"])
    page = editor.send(site.first, "GET", done.location)
    assert "Imported 6 rows from notice.csv into NOTICE_1" in page.body and 'http-equiv="refresh"' not in page.body
    assert editor.send(site.second, "GET", "/documents/NOTICE_1/").status == 200

    from documents import selectors

    settings.DYNAMODB_ENDPOINT_URL, settings.DYNAMODB_TABLE = site.endpoint, site.table
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == Decimal("2500001.00")
    assert not list(site.uploads.iterdir())  # the stored upload is cleaned up after the confirm
