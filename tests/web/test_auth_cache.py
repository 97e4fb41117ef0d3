"""The signed-in user and their permissions come from the process's memory between requests
(fundportal/auth_backend.py), and a change to the user or their permissions is seen at once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

from fundportal.models import EDIT_PERMISSION


def _user_queries(client, path: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    user_sql = [q["sql"] for q in queries.captured_queries if "auth_user" in q["sql"] or "auth_permission" in q["sql"]]
    return response.status_code, len(user_sql)


def _edit_permission() -> Permission:
    app_label, codename = EDIT_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


@pytest.fixture(autouse=True)
def fresh_cache():
    from django.core.cache import caches

    caches["process"].clear()


def test_a_signed_in_users_next_pages_read_no_user_or_permission_rows(sample, analyst_client):
    assert _user_queries(analyst_client, "/documents/DOC001/")[0] == 200  # loads and caches the user
    assert _user_queries(analyst_client, "/documents/DOC001/") == (200, 0)
    assert _user_queries(analyst_client, "/positions/POSITION_1/") == (200, 0)


@override_settings(AUTH_USER_CACHE_SECONDS=0)
def test_zero_seconds_reads_the_user_on_every_request(sample, analyst_client):
    analyst_client.get("/documents/DOC001/")
    status, user_queries = _user_queries(analyst_client, "/documents/DOC001/")
    assert status == 200 and user_queries >= 1


def test_a_permission_given_or_taken_shows_on_the_next_page(sample, analyst_client, analyst):
    assert b'data-testid="record-entry"' not in analyst_client.get("/documents/DOC001/").content
    analyst.user_permissions.add(_edit_permission())
    assert b'data-testid="record-entry"' in analyst_client.get("/documents/DOC001/").content
    analyst.user_permissions.clear()
    assert b'data-testid="record-entry"' not in analyst_client.get("/documents/DOC001/").content
    editors = Group.objects.create(name="editors")
    editors.permissions.add(_edit_permission())
    analyst.groups.add(editors)
    assert b'data-testid="record-entry"' in analyst_client.get("/documents/DOC001/").content
    editors.permissions.clear()
    assert b'data-testid="record-entry"' not in analyst_client.get("/documents/DOC001/").content


def test_a_deactivated_user_is_signed_out_on_the_next_request(sample, analyst_client, analyst):
    assert analyst_client.get("/documents/DOC001/").status_code == 200
    analyst.is_active = False
    analyst.save()
    response = analyst_client.get("/documents/DOC001/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
