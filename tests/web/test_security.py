"""Security: sign-in on every page (URL patterns enumerated, so new pages are covered), the edit
permission on every write, CSRF, the production deploy checks and headers, no secrets in git."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client

from fundportal.store.instrumentation import collect
from fundportal.store.repositories import DocumentRepository
from tests.web.urlmap import PUBLIC, routes

BASE_DIR = Path(__file__).resolve().parents[2]
WRITE_OPERATIONS = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"}
NEW_DOCUMENT = {
    "document_id": "SEC001",
    "title": "Security test notice",
    "fund_id": "FUND_A",
    "as_of_date": "2025-09-30",
    "currency": "USD",
    "status": "Active",
}


@pytest.fixture
def moto_sample(moto_backend):
    call_command("seed_demo", sample=True, stdout=open(os.devnull, "w"))
    return moto_backend


def _editor(django_user_model, name: str = "editor"):
    user = django_user_model.objects.create_user(name, password="editor-pass-123")
    user.user_permissions.add(Permission.objects.get(codename="edit_fund_data"))
    return user


def _table_items(backend) -> list[dict]:
    """Every item, for before/after comparisons (a Scan is fine in a test)."""
    from fundportal.store.client import get_client

    return sorted(
        (
            item
            for page in get_client().get_paginator("scan").paginate(TableName=backend.table)
            for item in page["Items"]
        ),
        key=lambda item: (item["PK"]["S"], item["SK"]["S"]),
    )


# --- sign-in -------------------------------------------------------------------------------


def test_every_url_but_the_public_ones_requires_sign_in(client, moto_sample):
    checked = 0
    for route in routes():
        path = route.build()
        if path in PUBLIC:
            continue
        with collect() as requests:
            response = client.get(path)
        # Admin pages may send anonymous users to either sign-in page; analyst pages to the portal's.
        logins = ("/admin/login/?next=", "/accounts/login/?next=") if route.is_admin else ("/accounts/login/?next=",)
        assert response.status_code == 302, f"{path} answered {response.status_code} to an anonymous user"
        assert response["Location"].startswith(logins), f"{path} -> {response['Location']}"
        assert requests.count == 0, f"{path} read DynamoDB for an anonymous user"
        checked += 1
    assert checked >= 15


def test_public_urls_answer_anonymous_users(client, moto_sample):
    for path in PUBLIC:
        assert client.get(path).status_code == 200, path


def test_anonymous_posts_are_refused_without_writing(client, moto_sample):
    before = _table_items(moto_sample)
    for route in routes():
        path = route.build()
        if path in PUBLIC or route.is_admin:
            continue
        with collect() as requests:
            response = client.post(path, NEW_DOCUMENT)
        assert response.status_code in (302, 403, 405), f"{path}: {response.status_code}"
        assert not WRITE_OPERATIONS & set(requests.operations), path
    assert _table_items(moto_sample) == before


# --- the edit permission ---------------------------------------------------------------------


def test_posts_without_the_edit_permission_get_403_and_write_nothing(analyst_client, moto_sample):
    before = _table_items(moto_sample)
    refused = 0
    for route in routes():
        path = route.build()
        if route.is_admin or path in PUBLIC or path in ("/", "/accounts/logout/"):
            continue  # "/" only redirects to the document list
        if path.startswith("/account/api-tokens/"):
            continue  # the user's own API tokens, in Django's database (tests/web/api/test_tokens.py)
        with collect() as requests:
            response = analyst_client.post(path, {**NEW_DOCUMENT, "expected_revision": "2", "amount": "1"})
        assert response.status_code in (403, 405), f"{path}: {response.status_code}"
        assert not WRITE_OPERATIONS & set(requests.operations), path
        refused += response.status_code == 403
    assert refused >= 5  # create, add/edit/delete entry, restate
    assert _table_items(moto_sample) == before


def test_viewers_see_no_write_forms(analyst_client, moto_sample):
    for path in ("/documents/new/", "/documents/DOC001/restate/", "/documents/DOC001/entries/new/"):
        assert analyst_client.get(path).status_code == 403, path


def test_editors_can_write(client, moto_sample, django_user_model):
    client.force_login(_editor(django_user_model))
    response = client.post("/documents/new/", NEW_DOCUMENT)
    assert response.status_code == 302
    assert DocumentRepository().get("SEC001").title == "Security test notice"


# --- CSRF ----------------------------------------------------------------------------------


def test_csrf_is_enforced_on_sign_in(db):
    csrf_client = Client(enforce_csrf_checks=True)
    assert csrf_client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 403


def test_csrf_is_enforced_on_writes(moto_sample, django_user_model):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(_editor(django_user_model))
    before = _table_items(moto_sample)
    with collect() as requests:
        refused = csrf_client.post("/documents/new/", NEW_DOCUMENT)
    assert refused.status_code == 403
    assert requests.count == 0
    assert _table_items(moto_sample) == before

    csrf_client.get("/documents/new/")  # sets the CSRF cookie, as a browser would
    token = csrf_client.cookies["csrftoken"].value
    accepted = csrf_client.post("/documents/new/", {**NEW_DOCUMENT, "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302
    assert DocumentRepository().get("SEC001").document_id == "SEC001"


# --- production settings ---------------------------------------------------------------------


def _production_env() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fundportal.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "portal.example.com",
    }


def test_production_passes_check_deploy():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


PRODUCTION_PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
# Static files are not collected here; the manifest storage is not what is being tested.
override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
response = Client().get("/accounts/login/", secure=True, HTTP_HOST="portal.example.com")
cookie = response.cookies.get("csrftoken")
print(json.dumps({
    "status": response.status_code,
    "headers": {k: v for k, v in response.headers.items()},
    "csrf_cookie_secure": bool(cookie and cookie["secure"]),
    "settings": {name: getattr(settings, name) for name in (
        "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY",
        "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "X_FRAME_OPTIONS")},
    "plain_http": Client().get("/accounts/login/", HTTP_HOST="portal.example.com").status_code,
}))
"""


def test_production_sends_the_security_headers(tmp_path):
    env = {**_production_env(), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_PROBE], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    headers = probe["headers"]
    assert probe["status"] == 200
    assert probe["plain_http"] == 301  # HTTP is redirected to HTTPS
    assert int(re.search(r"max-age=(\d+)", headers["Strict-Transport-Security"]).group(1)) >= 31536000
    assert "includeSubDomains" in headers["Strict-Transport-Security"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert probe["csrf_cookie_secure"]
    settings = probe["settings"]
    assert settings["DEBUG"] is False
    assert settings["SESSION_COOKIE_SECURE"] and settings["CSRF_COOKIE_SECURE"] and settings["SESSION_COOKIE_HTTPONLY"]


def test_production_refuses_a_missing_or_short_secret_key():
    env = {**_production_env(), "DJANGO_SECRET_KEY": "short"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


# --- no secrets in the repository ------------------------------------------------------------

# Split so this file does not match its own patterns.
SECRET_PATTERNS = {
    "AWS access key id": re.compile("(?<![A-Z0-9])" + "(AKIA|ASIA)" + "[0-9A-Z]{16}(?![A-Z0-9])"),
    "AWS secret key": re.compile(r"(?i)aws_secret_access_key\s*[=:]\s*['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])"),
    "private key": re.compile("-----BEGIN " + r"(RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----"),
    "Django secret key": re.compile(r"SECRET_KEY\s*=\s*['\"](?!test-only)[^'\"]{30,}['\"]"),
}


def test_no_secrets_in_tracked_files():
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=BASE_DIR, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    findings = []
    scanned = 0
    for name in filter(None, tracked):
        path = BASE_DIR / name
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_bytes().decode("utf-8", errors="ignore")
        scanned += 1
        findings += [f"{name}: {what}" for what, pattern in SECRET_PATTERNS.items() if pattern.search(text)]
    assert scanned > 20
    assert findings == []
    ignored = (BASE_DIR / ".gitignore").read_text()
    assert ".env" in ignored and "var/" in ignored


# --- no hand-built safe HTML in the apps ---------------------------------------------------------

APP_PACKAGES = ("fundportal", "documents", "positions")
# Split so this file does not match its own patterns.
UNSAFE_HTML_CALLS = re.compile(r"\b(" + "mark_safe" + "|" + "format_html" + r")\(")


def test_no_app_module_builds_safe_html_by_hand():
    """Rows, cells and figures are template markup (auto-escaped); no app module marks an
    f-string safe or assembles HTML with format_html."""
    findings = []
    scanned = 0
    for package in APP_PACKAGES:
        for path in sorted((BASE_DIR / package).rglob("*.py")):
            scanned += 1
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if UNSAFE_HTML_CALLS.search(line):
                    findings.append(f"{path.relative_to(BASE_DIR)}:{number}: {line.strip()}")
    assert scanned > 30
    assert findings == []
