"""The signed-in user, their permissions and their session are read from the shared database on
every request, never kept in a worker between requests: a sign-out, a password change, a
deactivation or a permission change holds on the very next request (across processes:
tests/web/test_shared_state.py)."""

from __future__ import annotations

from importlib import import_module

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.module_loading import import_string

from fundportal.models import EDIT_PERMISSION


def _user_queries(client, path: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    user_sql = [q["sql"] for q in queries.captured_queries if "auth_user" in q["sql"] or "auth_permission" in q["sql"]]
    return response.status_code, len(user_sql)


def _edit_permission() -> Permission:
    app_label, codename = EDIT_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def _signed_out(response) -> bool:
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_sessions_and_users_come_from_the_shared_database_not_a_process_cache():
    # Django's database session store and ModelBackend, or (speed trick on) their subclasses
    # that only read the same rows by a fixed statement (fundportal/perf/raw_auth_reads.py).
    engine = import_module(settings.SESSION_ENGINE).SessionStore
    backends = [import_string(path) for path in settings.AUTHENTICATION_BACKENDS]
    assert issubclass(engine, DatabaseSessionStore)
    assert backends[0] is AxesStandaloneBackend
    assert len(backends) == 2 and issubclass(backends[1], ModelBackend)
    assert set(settings.CACHES) == {"default"}
    assert not hasattr(settings, "AUTH_USER_CACHE_SECONDS")


def test_every_page_reads_the_signed_in_user_afresh(sample, analyst_client):
    assert analyst_client.get("/documents/DOC001/").status_code == 200
    status, user_queries = _user_queries(analyst_client, "/documents/DOC001/")
    assert status == 200 and user_queries >= 1


def test_a_permission_given_or_taken_shows_on_the_next_page(sample, analyst_client, analyst):
    assert b'data-testid="record-entry"' not in analyst_client.get("/documents/DOC001/").content
    analyst.user_permissions.add(_edit_permission())
    assert b'data-testid="record-entry"' in analyst_client.get("/documents/DOC001/").content
    analyst.user_permissions.remove(_edit_permission())
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
    assert _signed_out(analyst_client.get("/documents/DOC001/"))


def test_signing_out_deletes_the_session_from_the_database(sample, analyst_client):
    assert analyst_client.get("/documents/DOC001/").status_code == 200
    session_key = analyst_client.cookies["sessionid"].value
    assert Session.objects.filter(session_key=session_key).exists()
    analyst_client.post("/accounts/logout/")
    assert not Session.objects.filter(session_key=session_key).exists()
    stale = Client()
    stale.cookies["sessionid"] = session_key
    assert _signed_out(stale.get("/documents/DOC001/"))


def test_a_password_change_keeps_its_own_session_and_ends_the_others(sample, django_user_model):
    admin_user = django_user_model.objects.create_superuser("chief", password="chief-pass-123")
    here, elsewhere = Client(), Client()
    here.force_login(admin_user)
    elsewhere.force_login(admin_user)
    new_password = "a-New-passw0rd-for-chief"
    changed = here.post(
        f"/admin/auth/user/{admin_user.pk}/password/",
        {"password1": new_password, "password2": new_password, "usable_password": "true"},
    )
    assert changed.status_code == 302, changed.content[:2000]
    assert here.get("/documents/DOC001/").status_code == 200  # update_session_auth_hash
    assert _signed_out(elsewhere.get("/documents/DOC001/"))
