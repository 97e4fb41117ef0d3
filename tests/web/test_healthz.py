"""/healthz: 200 when DynamoDB answers, 503 otherwise; the table name, counts and the reason
only for staff (anonymous callers get the status alone); GET and HEAD."""

from __future__ import annotations


def test_healthz_ok(staff_client, backend):
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["table_status"] == "ACTIVE"
    assert body["table"] == backend.table


def test_healthz_table_missing(staff_client, backend, settings):
    settings.DYNAMODB_TABLE = "no_such_table"
    response = staff_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["reason"] == "table does not exist"


def test_healthz_dynamodb_down(staff_client, settings):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    response = staff_client.get("/healthz")
    assert response.status_code == 503
    assert "cannot reach DynamoDB" in response.json()["reason"]


def test_healthz_tells_anonymous_callers_the_status_only(client, backend, db):
    """The table name and item count are not for the world."""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert backend.table.encode() not in response.content


def test_healthz_anonymous_unavailable_has_no_reason(client, settings, db):
    settings.DYNAMODB_TABLE = "no_such_table_secret_name"
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}


def test_healthz_answers_head(client, backend, db):
    """Load balancers probe with HEAD (was 405)."""
    response = client.head("/healthz")
    assert response.status_code == 200
    assert client.post("/healthz").status_code == 405


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
