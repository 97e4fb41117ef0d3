"""Make sure someone can sign in: use DJANGO_SUPERUSER_* if set, else create an `analyst`
superuser with a generated password printed once. Never a fixed default password."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create a sign-in account if none exists (password generated and printed once)."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        if users.objects.filter(is_active=True).exists():
            self.stdout.write("Sign-in accounts exist; none created.")
            return
        username = os.environ.get("DJANGO_SUPERUSER_USERNAME", "analyst")
        password = os.environ.get("DJANGO_SUPERUSER_PASSWORD") or secrets.token_urlsafe(12)
        users.objects.create_superuser(username, os.environ.get("DJANGO_SUPERUSER_EMAIL", ""), password)
        shown = "(from DJANGO_SUPERUSER_PASSWORD)" if os.environ.get("DJANGO_SUPERUSER_PASSWORD") else password
        self.stdout.write(self.style.SUCCESS(f"Created account '{username}' with password: {shown}"))
        self.stdout.write("This password is shown once; change it in /admin/ or with manage.py changepassword.")
