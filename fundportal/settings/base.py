"""Settings shared by every environment; values come from the environment (12-factor)."""

from pathlib import Path

import environ
import jinja2
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "axes",  # login throttling
    "csp",  # Content-Security-Policy header
    "django_tasks",  # background jobs (Django's tasks API, backported)
    "django_tasks_db",  # the jobs' queue in Django's database, shared by every worker
    "fundportal",
    "fundportal.access",  # fund coverage: who may see and change which fund
    "fundportal.perf",  # speed tricks, each behind its setting (FUNDPORTAL_SPEED_TRICKS=off: none)
    "documents",
    "positions",
    "funds",
    "imports",  # notice import
    "exports",  # XLSX/CSV exports and PDF statements
    "ninja",  # django-ninja: the read API's OpenAPI schema and docs (its Swagger UI served locally)
    "api",  # the read API at /api/v1/ and personal API tokens
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every page needs a signed-in user unless its view is marked @login_not_required.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",  # with CSP_HEADER_CACHE: its subclass (below)
    "fundportal.middleware.DynamoDBMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "fundportal.urls"
WSGI_APPLICATION = "fundportal.wsgi.application"

# Every page of the portal (the layout, lists, forms, error pages, the login and lockout pages,
# the PDF statement) is a compiled Jinja2 template under templates/jinja2/, found first: Django's
# language resolves each `{{ row.x }}` at run time, and a 100-position document has thousands
# of them. Undefined names raise, so a typo fails the tests. Filters and
# functions: fundportal/jinja2.py and fundportal/jinja_globals.py. (The backend itself adds
# `request`, `csrf_token` and `csrf_input`.)
# Django's admin keeps Django's own engine: templates/admin/ extends admin/base_site.html.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "fundportal.jinja2.environment",
            "context_processors": [
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "fundportal.context_processors.dynamodb_footer",
            ],
            "undefined": jinja2.StrictUndefined,
            "autoescape": True,
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "NAME": "django",  # the alias Django gives its own backend
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
# Each worker keeps its database connection (users, sessions, permissions) between requests,
# checked before reuse: opening one per request is a fixed cost of every page.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=300)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# SQLite (the local default) in write-ahead-log mode, synced at checkpoints rather than at every
# commit: a commit cost ~20 ms of fsync on a shared disk, paid by every API call (its throttle
# counts the call with one UPDATE: api/throttle.py) and every sign-in. Readers never block the
# writer. A power cut may lose the last commits, never corrupt the file; production runs PostgreSQL.
SQLITE_WAL = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and env.bool("DJANGO_SQLITE_WAL", default=True):
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = SQLITE_WAL

# Sessions live in the database every worker and machine shares, and are read from it on every
# request: a sign-out, a password change or a deactivation handled by one worker ends the session
# on all of them at once. One primary-key query on the connection each worker keeps (below); a
# read-through cache would not save it (locally the shared cache is this same database) and would
# be a second copy that can outlive a sign-out when a cache write fails.
SESSION_ENGINE = "django.contrib.sessions.backends.db"  # with AUTH_RAW_READS: its subclass (below)
# One cache every worker and machine shares (the admin request log): a database cache by default
# (`manage.py createcachetable`, run by `make run`), Redis or Memcached in production via
# DJANGO_CACHE_URL (e.g. redis://cache:6379/1, pymemcache://cache:11211).
CACHES = {"default": env.cache("DJANGO_CACHE_URL", default="dbcache://fundportal_cache")}

# Background jobs (web imports): queued in Django's database, run by `manage.py db_worker`
# processes (scripts/run.sh starts one; production runs it as its own service).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A running import job not heard from for this many seconds has lost its worker: its page offers
# to run it again (a re-run finishes it to the same final state).
IMPORT_JOB_STALE_SECONDS = env.int("DJANGO_IMPORT_JOB_STALE_SECONDS", default=120)

# Speed tricks (fundportal/perf/), each behind its own setting and installed by PerfConfig.ready();
# FUNDPORTAL_SPEED_TRICKS=off turns every one off (plain Django + boto3).
SPEED_TRICKS = env.bool("FUNDPORTAL_SPEED_TRICKS", default=True)
# Query items straight from the JSON body (fundportal/perf/fast_parse.py); off: botocore's parser.
DYNAMODB_FAST_QUERY_PARSE = SPEED_TRICKS and env.bool("DYNAMODB_FAST_QUERY_PARSE", default=True)
# BatchGetItem responses straight from the JSON body (fundportal/perf/fast_batch_get.py); off: botocore's parser.
DYNAMODB_FAST_BATCH_GET_PARSE = SPEED_TRICKS and env.bool("DYNAMODB_FAST_BATCH_GET_PARSE", default=True)
# The Jinja2 url() global reverses each URL once per process (fundportal/perf/url_cache.py).
TEMPLATE_URL_CACHE = SPEED_TRICKS and env.bool("FUNDPORTAL_TEMPLATE_URL_CACHE", default=True)
# The Jinja2 static() global looks each static file's URL up once per process (per script
# prefix), emptied when a setting changes (fundportal/perf/static_cache.py).
TEMPLATE_STATIC_CACHE = SPEED_TRICKS and env.bool("FUNDPORTAL_TEMPLATE_STATIC_CACHE", default=True)
# The row macros' formatted figures output without HTML escaping (they hold no character that
# needs it: fundportal/perf/unescaped_figures.py).
TEMPLATE_UNESCAPED_FIGURES = SPEED_TRICKS and env.bool("FUNDPORTAL_TEMPLATE_UNESCAPED_FIGURES", default=True)
# The read API's bodies serialised as built, not first checked against their schema by ninja
# (fundportal/perf/direct_json.py): the same bytes.
API_DIRECT_JSON = SPEED_TRICKS and env.bool("FUNDPORTAL_API_DIRECT_JSON", default=True)

# The position page's filter form, when no filter is asked for, drawn once per process for each
# set of document types (fundportal/perf/filter_form_memo.py); off: Django's form on every page.
FILTER_FORM_MEMO = SPEED_TRICKS and env.bool("FUNDPORTAL_FILTER_FORM_MEMO", default=True)
# The row macros' ids, links and statuses escaped once per distinct text (a bounded memo of
# markupsafe's escape(): fundportal/perf/escape_memo.py); off: escape() on every output.
TEMPLATE_ESCAPE_MEMO = SPEED_TRICKS and env.bool("FUNDPORTAL_TEMPLATE_ESCAPE_MEMO", default=True)
# A serving process, at its first request, freezes what start-up loaded and collects young
# objects every this many allocations instead of 700 (fundportal/perf/gc_tuning.py): garbage
# collection was a large share of a 100-position document page. 0: the collector is left alone.
GC_GEN0_THRESHOLD = env.int("DJANGO_GC_GEN0_THRESHOLD", default=50_000) if SPEED_TRICKS else 0
# With that tuning, the young collections run once a response has gone out instead of in the
# middle of a page (fundportal/perf/gc_after_response.py); off: wherever the threshold falls.
GC_AFTER_RESPONSE = SPEED_TRICKS and env.bool("FUNDPORTAL_GC_AFTER_RESPONSE", default=True)
# Every request's session and user read by one fixed SQL statement each (Django's raw() API)
# instead of a queryset compiled anew (fundportal/perf/raw_auth_reads.py): still read from the
# shared database on every request. Changing it signs everyone out once (sessions name their backend).
AUTH_RAW_READS = SPEED_TRICKS and env.bool("FUNDPORTAL_AUTH_RAW_READS", default=True)
if AUTH_RAW_READS:
    SESSION_ENGINE = "fundportal.perf.raw_auth_reads"
# The Content-Security-Policy header of the settings' policy built once per process, not on every
# response (fundportal/perf/csp_header.py: django-csp's middleware, subclassed; a response whose
# view asks for its own policy or a nonce is django-csp's as before): the same header bytes.
CSP_HEADER_CACHE = SPEED_TRICKS and env.bool("FUNDPORTAL_CSP_HEADER_CACHE", default=True)
if CSP_HEADER_CACHE:
    MIDDLEWARE[MIDDLEWARE.index("csp.middleware.CSPMiddleware")] = "fundportal.perf.csp_header.CSPMiddleware"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from
# one address, that pair is locked out for AXES_COOLOFF_TIME hours, on the site login and the
# admin login alike. Behind a proxy, REMOTE_ADDR is the proxy's: see README "Production".
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # The signed-in user and their permissions are read from the database on each request, never
    # kept in a worker between requests: a revoked permission or a deactivation holds at once.
    "fundportal.perf.raw_auth_reads.RawReadModelBackend"
    if AUTH_RAW_READS
    else "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_TIME", default=0.25)  # hours (15 minutes)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "documents:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The portal is English-only: without the translation machinery every reverse() and every
# rendered value skips a language look-up (part of the per-page cost the benchmarks measure).
USE_I18N = False
USE_TZ = True
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Uploaded notices wait between the import's preview and its confirm, named by their sha256
# (imports/views.py). Every server process must see the same files (the confirm may reach another
# worker or machine than the preview): a directory locally (DJANGO_IMPORTS_ROOT, under var/ by
# default; shared by every worker of one machine), an S3 bucket across machines
# (DJANGO_IMPORTS_STORAGE=s3, django-storages; credentials from the AWS default chain).
_imports_backend = env("DJANGO_IMPORTS_STORAGE", default="filesystem")
if _imports_backend == "filesystem":
    _imports_storage = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": env("DJANGO_IMPORTS_ROOT", default="") or str(VAR_DIR / "imports"),
            "allow_overwrite": True,  # same name = same checksum = same bytes
        },
    }
elif _imports_backend == "s3":
    if not env("DJANGO_IMPORTS_BUCKET", default=""):
        raise ImproperlyConfigured("DJANGO_IMPORTS_STORAGE=s3 needs DJANGO_IMPORTS_BUCKET.")
    _imports_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env("DJANGO_IMPORTS_BUCKET"),
            "location": env("DJANGO_IMPORTS_PREFIX", default="imports"),
            "region_name": env("AWS_REGION", default="us-east-1"),
            "file_overwrite": True,  # same name = same checksum = same bytes
        },
    }
else:
    raise ImproperlyConfigured(f"DJANGO_IMPORTS_STORAGE must be 'filesystem' or 's3', not {_imports_backend!r}.")

# Plain storage here and locally: pages render without `collectstatic` (whitenoise serves the
# app directories, WHITENOISE_USE_FINDERS in local). Production uses the hashed manifest storage
# and needs `collectstatic` (README "Production").
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "imports": _imports_storage,
}

# Content-Security-Policy (django-csp 4): no inline scripts or styles anywhere, only our own
# static files; the chart is inline SVG with presentation attributes (allowed).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Signed page links (position pages, explorer, document list) expire after this many seconds:
# the running totals an old link carries are refused, never shown stale.
CURSOR_MAX_AGE = env.int("CURSOR_MAX_AGE", default=3600)

# Summary items per fund (fundportal.store.repositories.summaries): a position's share of its
# fund's totals goes to one of them (a hash of its id), so writers of one fund spread over this
# many partitions. After changing it run `manage.py verify_positions --repair` (rebuilds them).
FUND_SUMMARY_SHARDS = env.int("FUND_SUMMARY_SHARDS", default=10)

# --- DynamoDB ---------------------------------------------------------------------------------
AWS_REGION = env("AWS_REGION", default="us-east-1")
DYNAMODB_TABLE = env("DYNAMODB_TABLE", default="investment_fund")
# Unset (empty) means Amazon DynamoDB in AWS_REGION.
DYNAMODB_ENDPOINT_URL = env("DYNAMODB_ENDPOINT_URL", default="") or None
# botocore retry mode "standard" with this many attempts in all; timeouts in seconds.
DYNAMODB_MAX_ATTEMPTS = env.int("DYNAMODB_MAX_ATTEMPTS", default=4)
# 4 attempts x (1 + 3) s plus botocore's backoff (<= 7 s) = 23 s: fits DYNAMODB_REQUEST_BUDGET.
DYNAMODB_CONNECT_TIMEOUT = env.float("DYNAMODB_CONNECT_TIMEOUT", default=1.0)
DYNAMODB_READ_TIMEOUT = env.float("DYNAMODB_READ_TIMEOUT", default=3.0)
DYNAMODB_MAX_POOL_CONNECTIONS = env.int("DYNAMODB_MAX_POOL_CONNECTIONS", default=32)
# Background import jobs write with this botocore retry mode (`adaptive`: a client-side token
# bucket paces the writes to what the table accepts once it starts throttling).
DYNAMODB_JOB_RETRY_MODE = env("DYNAMODB_JOB_RETRY_MODE", default="adaptive")
# Imports pace their bulk writes per partition key (imports/pacing.py): `adaptive` (a key is
# paced once DynamoDB throttles it, up to DYNAMODB_PARTITION_WCU_PER_S) or `off`.
DYNAMODB_IMPORT_PACING = env("DYNAMODB_IMPORT_PACING", default="adaptive")
DYNAMODB_PARTITION_WCU_PER_S = env.float("DYNAMODB_PARTITION_WCU_PER_S", default=1000.0)
# Show the "DynamoDB: N requests" footer to staff (always shown when DEBUG).
DYNAMODB_FOOTER = env.bool("DYNAMODB_FOOTER", default=True)
# Seconds all DynamoDB calls of one request may take together (fundportal/store/budget.py);
# keep it below gunicorn's --timeout (scripts/run.sh uses budget + 10). Past it: the 503 page.
DYNAMODB_REQUEST_BUDGET = env.float("DYNAMODB_REQUEST_BUDGET", default=25.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {"botocore": {"level": "WARNING"}, "urllib3": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}

# The read API (api/): calls per token, counted on the token's row in the shared database by
# one conditional UPDATE a call (api/throttle.py), so every worker counts the same calls.
API_THROTTLE_RATE = env("API_THROTTLE_RATE", default="120/min")
