"""A separate process sharing one SQLite file as Django's database, like a gunicorn worker:
`setup DB` migrates it and prints a new token's id; `calls DB TOKEN_ID CALLS LIMIT START_AT`
waits for the shared start moment, counts CALLS calls of the token against LIMIT an hour and
prints how many were allowed (tests/web/api/test_throttle.py)."""

from __future__ import annotations

import os
import sys
import time


def django_on(database: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "fundportal.settings.test"
    import django
    from django.conf import settings

    # 30 s for the file lock: every process writes the same row at the same instant.
    settings.DATABASES = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database, "OPTIONS": {"timeout": 30}}
    }
    django.setup()


def main(argv: list[str]) -> int:
    mode, database, *rest = argv
    django_on(database)
    if mode == "setup":
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from api import tokens

        call_command("migrate", "--noinput", verbosity=0)
        user = get_user_model().objects.create_user("throttled")
        print(tokens.issue(user, "busy").record.pk)
        return 0
    from api import throttle

    token_id, calls, limit, start_at = int(rest[0]), int(rest[1]), int(rest[2]), float(rest[3])
    rate = throttle.Rate(limit, 3600)
    while time.time() < start_at:
        time.sleep(0.001)
    allowed = sum(throttle.take_call(token_id, rate, time.time()) is None for _ in range(calls))
    print(allowed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
