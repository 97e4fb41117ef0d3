"""WSGI entry point (gunicorn fundportal.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fundportal.settings.local")
application = get_wsgi_application()
