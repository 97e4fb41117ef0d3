"""The session and user reads by a fixed statement (fundportal/perf/raw_auth_reads.py) give what
Django's own database session store and ModelBackend give, one query each, from the database
every time; the setting chooses them, and with the speed tricks off Django's classes are used."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api import tokens
from api.models import ApiToken
from api.tokens import digest_of, read_active
from fundportal.perf.raw_auth_reads import RawReadModelBackend, SessionStore, read_token

pytestmark = pytest.mark.django_db

BASE_DIR = Path(__file__).resolve().parents[2]


def _saved_session(**data: object) -> str:
    session = DatabaseSessionStore()
    session.update(data)
    session.create()
    return session.session_key or ""


def test_a_session_loads_as_djangos_store_loads_it_in_one_query():
    key = _saved_session(_auth_user_id="7", note="kept")
    with CaptureQueriesContext(connection) as queries:
        loaded = SessionStore(key).load()
    assert loaded == DatabaseSessionStore(key).load() == {"_auth_user_id": "7", "note": "kept"}
    assert len(queries.captured_queries) == 1
    assert "django_session" in queries.captured_queries[0]["sql"]


def test_an_expired_or_unknown_or_deleted_session_loads_empty_and_forgets_its_key():
    expired = _saved_session(note="old")
    Session.objects.filter(session_key=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    deleted = _saved_session(note="signed out")
    DatabaseSessionStore(deleted).delete()
    for key in (expired, deleted, "no-such-session-key-0123456789"):
        store = SessionStore(key)
        assert store.load() == {}
        assert store.session_key is None


def test_a_session_written_through_the_store_is_read_back():
    store = SessionStore()
    store["answer"] = 42
    store.save()
    assert SessionStore(store.session_key).load() == {"answer": 42}


def test_the_user_read_is_the_user_modelbackend_reads_in_one_query(django_user_model):
    user = django_user_model.objects.create_user("reader", password="pw-reader-123", email="r@example.com")
    user.last_login = timezone.now()
    user.save()
    with CaptureQueriesContext(connection) as queries:
        raw = RawReadModelBackend().get_user(str(user.pk))
    plain = ModelBackend().get_user(user.pk)
    assert len(queries.captured_queries) == 1
    assert raw is not None and plain is not None
    fields = [field.attname for field in django_user_model._meta.concrete_fields]
    assert {name: getattr(raw, name) for name in fields} == {name: getattr(plain, name) for name in fields}
    assert raw.last_login == user.last_login  # a datetime, converted as a queryset converts it
    assert raw.get_session_auth_hash() == user.get_session_auth_hash()
    assert not raw._state.adding  # a saved row: saving it updates, never inserts


def test_an_inactive_or_missing_user_is_no_user(django_user_model):
    user = django_user_model.objects.create_user("gone", password="pw-gone-1234", is_active=False)
    assert RawReadModelBackend().get_user(user.pk) is None
    assert RawReadModelBackend().get_user(user.pk + 1000) is None


def test_a_revoked_permission_holds_on_the_next_read(django_user_model):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("editor", password="pw-editor-123")
    permission = Permission.objects.get(codename="view_session")
    user.user_permissions.add(permission)
    assert RawReadModelBackend().get_user(user.pk).has_perm("sessions.view_session")
    user.user_permissions.remove(permission)
    assert not RawReadModelBackend().get_user(user.pk).has_perm("sessions.view_session")


def _settings_under(environment: dict[str, str]) -> list[str]:
    code = (
        "from django.conf import settings; print(settings.SESSION_ENGINE); print(settings.AUTHENTICATION_BACKENDS[-1])"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "fundportal.settings.test", **environment}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


def test_the_setting_chooses_the_raw_reads_and_the_speed_tricks_switch_turns_them_off():
    on = _settings_under({"FUNDPORTAL_SPEED_TRICKS": "on", "FUNDPORTAL_AUTH_RAW_READS": "true"})
    assert on == ["fundportal.perf.raw_auth_reads", "fundportal.perf.raw_auth_reads.RawReadModelBackend"]
    plain = ["django.contrib.sessions.backends.db", "django.contrib.auth.backends.ModelBackend"]
    assert _settings_under({"FUNDPORTAL_SPEED_TRICKS": "off", "FUNDPORTAL_AUTH_RAW_READS": "true"}) == plain
    assert _settings_under({"FUNDPORTAL_SPEED_TRICKS": "on", "FUNDPORTAL_AUTH_RAW_READS": "false"}) == plain


def _reads(digest: str) -> tuple[object, object]:
    now = timezone.now()
    return read_token(digest, now), read_active(digest, now)


def test_an_api_token_reads_as_the_queryset_reads_it_with_its_user(django_user_model):
    user = django_user_model.objects.create_user("reader", password="x")
    issued = tokens.issue(user, "notebook")
    with CaptureQueriesContext(connection) as queries:
        raw = read_token(digest_of(issued.token), timezone.now())
    plain = read_active(digest_of(issued.token), timezone.now())
    assert raw is not None and plain is not None
    assert (raw.pk, raw.user.pk, raw.user.username) == (plain.pk, plain.user.pk, "reader")
    assert len(queries.captured_queries) == 1  # the token by its digest, joined to its user
    token_fields = [field.attname for field in ApiToken._meta.concrete_fields]
    user_fields = [field.attname for field in django_user_model._meta.concrete_fields]
    assert {name: getattr(raw, name) for name in token_fields} == {name: getattr(plain, name) for name in token_fields}
    assert {name: getattr(raw.user, name) for name in user_fields} == {
        name: getattr(plain.user, name) for name in user_fields
    }
    assert not raw._state.adding and not raw.user._state.adding  # saved rows: saving updates them


def test_a_revoked_expired_or_unknown_api_token_reads_as_none_both_ways(django_user_model):
    user = django_user_model.objects.create_user("reader", password="x")
    revoked, expired = tokens.issue(user, "revoked"), tokens.issue(user, "expired")
    tokens.revoke(revoked.record)
    ApiToken.objects.filter(pk=expired.record.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    for digest in (digest_of(revoked.token), digest_of(expired.token), digest_of("fpt_unknown")):
        assert _reads(digest) == (None, None)


def test_the_speed_trick_installs_the_token_reader_in_one_place():
    code = "import django; django.setup(); from api import tokens; print(tokens._reader.__module__)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "fundportal.settings.test"}
    for switch, expected in (("on", "fundportal.perf.raw_auth_reads"), ("off", "api.tokens")):
        env["FUNDPORTAL_SPEED_TRICKS"] = switch
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
        )
        assert result.stdout.split()[-1] == expected
