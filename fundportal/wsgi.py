"""WSGI entry point (gunicorn fundportal.wsgi)."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from fundportal.gc_tuning import tune_for_requests

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fundportal.settings.local")
application = get_wsgi_application()
# Load the URLconf and with it every view, selector and form now, so the freeze covers them.
get_resolver().url_patterns  # noqa: B018 (imports the views)
tune_for_requests(settings.GC_GEN0_THRESHOLD)
