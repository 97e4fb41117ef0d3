"""Tests: in-memory SQLite, fast hashing; DynamoDB endpoint set by the fixtures."""

from .base import *

SECRET_KEY = "test-only-not-secret"  # noqa: S105
DEBUG = False
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    # Tests that upload point this at their own temporary directory (settings.STORAGES).
    "imports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(VAR_DIR / "test-imports"), "allow_overwrite": True},
    },
}
DYNAMODB_ENDPOINT_URL = None
DYNAMODB_TABLE = "investment_fund_test"
DYNAMODB_MAX_ATTEMPTS = 2
DYNAMODB_CONNECT_TIMEOUT = 1.0
DYNAMODB_READ_TIMEOUT = 3.0  # 4 x (1 + 3) s + backoff fits the request budget (faults tests use 4)
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
# Tests need no cache table: one process, local memory (tests/web/test_shared_state.py runs
# gunicorn with the local settings and a shared database cache).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Import jobs run inside the request that enqueues them (one test runs a real db_worker).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
