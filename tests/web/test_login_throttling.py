"""Login throttling (django-axes) on the site login and the admin login.

Before: 40 wrong passwords in a row were all answered 200 and the right one then signed in.
Now: after AXES_FAILURE_LIMIT failures for one username from one address, that pair is locked
out (429 and a clear page), even with the right password; other users and addresses are not.
"""

from __future__ import annotations

import pytest
from django.conf import settings


@pytest.fixture
def victim(django_user_model):
    return django_user_model.objects.create_user("victim", password="right-pass-123", is_staff=True)


def _fail(client, url: str, times: int, username: str = "victim", address: str = "203.0.113.7"):
    return [
        client.post(url, {"username": username, "password": f"wrong-{i}"}, REMOTE_ADDR=address).status_code
        for i in range(times)
    ]


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_wrong_passwords_lock_the_user_out_of_this_address(client, victim, url):
    limit = settings.AXES_FAILURE_LIMIT
    statuses = _fail(client, url, limit)
    assert statuses[: limit - 1] == [200] * (limit - 1)  # the form again, with its error
    assert statuses[-1] == 429
    locked = client.post(url, {"username": "victim", "password": "right-pass-123"}, REMOTE_ADDR="203.0.113.7")
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert "_auth_user_id" not in client.session  # the right password did not sign in


def test_the_lockout_is_per_user_and_address(client, victim, django_user_model):
    django_user_model.objects.create_user("bystander", password="bystander-pass-123")
    _fail(client, "/accounts/login/", settings.AXES_FAILURE_LIMIT)
    other_address = client.post(
        "/accounts/login/", {"username": "victim", "password": "right-pass-123"}, REMOTE_ADDR="198.51.100.9"
    )
    assert other_address.status_code == 302  # the same user from elsewhere still signs in
    client.logout()
    other_user = client.post(
        "/accounts/login/", {"username": "bystander", "password": "bystander-pass-123"}, REMOTE_ADDR="203.0.113.7"
    )
    assert other_user.status_code == 302


def test_a_success_before_the_limit_resets_the_count(client, victim):
    _fail(client, "/accounts/login/", settings.AXES_FAILURE_LIMIT - 1)
    ok = client.post(
        "/accounts/login/", {"username": "victim", "password": "right-pass-123"}, REMOTE_ADDR="203.0.113.7"
    )
    assert ok.status_code == 302
    client.logout()
    assert _fail(client, "/accounts/login/", 1) == [200]
