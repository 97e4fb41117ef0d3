"""Local development: DynamoDB Local on 127.0.0.1:8100 unless the environment says otherwise."""

from .base import *
from .base import env

DYNAMODB_ENDPOINT_URL = env("DYNAMODB_ENDPOINT_URL", default="http://127.0.0.1:8100") or None
if not SECRET_KEY:
    # A per-checkout key kept under var/ (git-ignored), never a fixed default.
    from fundportal.secret import local_secret_key

    SECRET_KEY = local_secret_key(VAR_DIR)

# Serve static files straight from the app and project directories: no `collectstatic` needed.
WHITENOISE_USE_FINDERS = True
