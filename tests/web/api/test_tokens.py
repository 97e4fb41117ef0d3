"""Personal API tokens: stored hashed, shown once, named, expiring and revocable (on the user's
page, in the admin and by `manage.py api_token`); a revoked or expired token is refused on the
very next call; throttled per token with Retry-After; each call logged with the token's name."""

from __future__ import annotations

import io
import logging
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from api import tokens
from api.models import ApiToken

pytestmark = pytest.mark.django_db


def bearer(token: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def test_a_token_is_stored_only_as_its_digest(analyst):
    issued = tokens.issue(analyst, "notebook", days=7)
    record = ApiToken.objects.get()
    assert issued.token.startswith(tokens.TOKEN_PREFIX)
    assert record.digest == tokens.digest_of(issued.token) and issued.token not in record.digest
    assert record.prefix == issued.token[:12]
    assert timedelta(days=6) < record.expires_at - timezone.now() <= timedelta(days=7)
    assert tokens.authenticate(issued.token) == record
    assert tokens.authenticate(issued.token + "x") is None


def test_no_or_a_wrong_token_is_401_problem_json(sample):
    for client in (Client(), bearer("fpt_not-a-token"), Client(HTTP_AUTHORIZATION="Basic abc")):
        response = client.get("/api/v1/funds")
        assert response.status_code == 401
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["status"] == 401
        assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_session_alone_does_not_open_the_api(sample, analyst_client):
    assert analyst_client.get("/api/v1/funds").status_code == 401


def test_a_revoked_token_is_refused_on_the_next_call(sample, analyst):
    issued = tokens.issue(analyst, "notebook")
    client = bearer(issued.token)
    assert client.get("/api/v1/funds").status_code == 200
    assert tokens.revoke(issued.record)
    assert client.get("/api/v1/funds").status_code == 401
    assert not tokens.revoke(issued.record)  # already revoked


def test_an_expired_token_or_an_inactive_user_is_refused(sample, analyst):
    issued = tokens.issue(analyst, "notebook")
    client = bearer(issued.token)
    ApiToken.objects.filter(pk=issued.record.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert client.get("/api/v1/funds").status_code == 401
    other = tokens.issue(analyst, "second")
    analyst.is_active = False
    analyst.save()
    assert bearer(other.token).get("/api/v1/funds").status_code == 401


@pytest.mark.parametrize(("name", "days"), [("", 5), ("x", 0), ("x", tokens.MAX_DAYS + 1)])
def test_a_token_needs_a_name_and_a_bounded_life(analyst, name, days):
    with pytest.raises(ValueError):
        tokens.issue(analyst, name, days)


def test_calls_past_the_rate_are_429_with_retry_after(sample, analyst, settings):
    cache.clear()
    settings.API_THROTTLE_RATE = "2/min"
    client = bearer(tokens.issue(analyst, "busy").token)
    assert [client.get("/api/v1/funds").status_code for _ in range(2)] == [200, 200]
    response = client.get("/api/v1/funds")
    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert 1 <= int(response["Retry-After"]) <= 60
    # Counted per token: another token of the same user is not throttled.
    assert bearer(tokens.issue(analyst, "other").token).get("/api/v1/funds").status_code == 200


def test_every_call_is_logged_with_its_token_name(sample, analyst, caplog):
    client = bearer(tokens.issue(analyst, "excel on laptop").token)
    with caplog.at_level(logging.INFO, logger="fundportal.api"):
        client.get("/api/v1/funds/FUND_A/lines")
    [line] = [r.getMessage() for r in caplog.records if r.name == "fundportal.api"]
    assert "token='excel on laptop'" in line and "user=analyst" in line and "dynamodb_requests=1" in line


# --- the user's page ------------------------------------------------------------------------------


def test_the_page_shows_a_new_token_once_and_revokes_it(sample, analyst_client):
    response = analyst_client.post("/account/api-tokens/", {"name": "notebook", "days": "30"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    token = re.search(r"<code>(fpt_[^<]+)</code>", response.content.decode()).group(1)
    assert bearer(token).get("/api/v1/funds").status_code == 200
    listing = analyst_client.get("/account/api-tokens/").content.decode()
    assert "notebook" in listing and token not in listing  # shown once only
    record = ApiToken.objects.get()
    assert analyst_client.post(f"/account/api-tokens/{record.pk}/revoke/").status_code == 302
    assert bearer(token).get("/api/v1/funds").status_code == 401
    assert "revoked" in analyst_client.get("/account/api-tokens/").content.decode()


def test_the_page_refuses_a_nameless_token_and_another_users_token(analyst_client, django_user_model):
    assert analyst_client.post("/account/api-tokens/", {"name": "", "days": "30"}).status_code == 400
    other = tokens.issue(django_user_model.objects.create_user("someone-else"), "theirs")
    assert analyst_client.post(f"/account/api-tokens/{other.record.pk}/revoke/").status_code == 404
    assert ApiToken.objects.get(pk=other.record.pk).revoked_at is None


def test_the_page_needs_a_signed_in_user(client):
    response = client.get("/account/api-tokens/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_admin_lists_and_revokes_tokens(admin_client, analyst):
    issued = tokens.issue(analyst, "service")
    assert "service" in admin_client.get("/admin/api/apitoken/").content.decode()
    admin_client.post("/admin/api/apitoken/", {"action": "revoke_tokens", "_selected_action": [issued.record.pk]})
    assert tokens.authenticate(issued.token) is None


# --- the command ----------------------------------------------------------------------------------


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("api_token", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_a_token_once_and_revokes_it(sample, analyst):
    token = run("create", "--user", "analyst", "--name", "service", "--days", "3").strip()
    assert bearer(token).get("/api/v1/funds").status_code == 200
    listed = run("list", "--user", "analyst")
    assert "'service'" in listed and "active" in listed and token not in listed
    assert "Revoked token" in run("revoke", "--user", "analyst", "--name", "service")
    assert bearer(token).get("/api/v1/funds").status_code == 401


@pytest.mark.parametrize(
    "args",
    [
        ("create", "--name", "x"),
        ("create", "--user", "nobody", "--name", "x"),
        ("create", "--user", "analyst"),
        ("create", "--user", "analyst", "--name", "x", "--days", "0"),
        ("revoke", "--id", "999"),
        ("revoke",),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(analyst, args):
    with pytest.raises(CommandError):
        run(*args)


def test_every_api_route_but_the_schema_and_docs_needs_a_token(sample):
    from api.site import api

    ids = {
        "{document_id}": "DOC001",
        "{position_id}": "POSITION_1",
        "{fund_id}": "FUND_A",
        "{investor_id}": "INVESTOR_1",
    }
    anonymous = Client()
    paths = list(api.get_openapi_schema()["paths"])
    assert len(paths) >= 15
    for template in paths:
        path = template
        for name, value in ids.items():
            path = path.replace(name, value)
        response = anonymous.get(path)
        assert response.status_code == 401, path
        assert response["Content-Type"] == "application/problem+json"
    for path in ("/api/v1/openapi.json", "/api/v1/docs"):
        assert anonymous.get(path).status_code == 200, path


def test_the_api_is_read_only(sample, api_token):
    api_client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {api_token}")
    for path in ("/api/v1/funds", "/api/v1/openapi.json", "/api/v1/funds/FUND_A/lines"):
        response = api_client.post(path, {})
        assert response.status_code == 405, path
        assert response["Content-Type"] == "application/problem+json"
