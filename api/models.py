"""Personal API tokens, in Django's database (read on every API call, never cached: a revoked or
expired token is refused at once by every worker). Only a token's SHA-256 digest is kept; the
token itself is shown once, when it is made (`api.tokens.issue`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for (shown in the API call log).")
    prefix = models.CharField(max_length=16, help_text="The token's first characters, to recognise it.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The throttle's counter (`api.throttle`): the current window's start (epoch seconds) and the
    # calls counted in it, both changed only by its one atomic UPDATE.
    window_start = models.BigIntegerField(default=0, editable=False)
    window_calls = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"api-token-{self.digest[:20]}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()

    @property
    def state(self) -> str:
        if self.revoked_at is not None:
            return "revoked"
        return "active" if self.expires_at > timezone.now() else "expired"
