"""Django settings for the bench process itself (the pages section runs gunicorn with
fundportal.settings.local instead, as in production-like local use)."""

from fundportal.settings.base import *  # noqa: F403
from fundportal.settings.base import LOGGING, SQLITE_WAL, env

SECRET_KEY = "bench-only-not-secret"
DEBUG = False
DATABASES = {"default": env.db("DATABASE_URL", default="sqlite://:memory:")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # as the served site's (base settings)
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = SQLITE_WAL
LOGGING["root"]["level"] = "WARNING"
# A filtered Scan page of the broken design can take seconds on a busy machine.
DYNAMODB_READ_TIMEOUT = 120
