"""/healthz: 200 with the table status when DynamoDB answers, 503 with the reason otherwise."""

from __future__ import annotations


def test_healthz_ok(client, backend):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["table_status"] == "ACTIVE"
    assert body["table"] == backend.table


def test_healthz_table_missing(client, backend, settings):
    settings.DYNAMODB_TABLE = "no_such_table"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["reason"] == "table does not exist"


def test_healthz_dynamodb_down(client, settings):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "cannot reach DynamoDB" in response.json()["reason"]


def test_login_page_renders(client, db):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert b"Sign in" in response.content


def test_pages_redirect_anonymous_users_to_login(client, db):
    response = client.get("/documents/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/documents/")
    assert client.get("/admin/").status_code == 302
    assert client.get("/admin/login/").status_code == 200
