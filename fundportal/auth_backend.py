"""The signed-in user (and their permissions) read from this process's memory for a few seconds
instead of from the database on every request.

Django's `ModelBackend.get_user` runs a query for the user on every page, and an analyst's first
permission check two more (their own and their groups' permissions): about 1 ms of every page
through gunicorn, more than the whole base layout. This backend keeps the user, with their
permission sets already loaded, in the per-process cache (`CACHES["process"]`) for
`AUTH_USER_CACHE_SECONDS`.

Freshness: any change made through the ORM's signals (saving or deleting a user or group,
adding or removing a user's groups or permissions, a group's permissions) drops every cached user
of the process that made it at once; other processes see it within `AUTH_USER_CACHE_SECONDS`.
So a deactivated user or a changed password (which ends the user's other sessions) takes at
most that long to reach every worker. 0 turns the cache off.
"""

from __future__ import annotations

import itertools
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.core.cache import caches
from django.db.models.signals import m2m_changed, post_delete, post_save

CACHE_ALIAS = "process"
_generation = itertools.count()
_current = next(_generation)


def forget_users(**_: Any) -> None:
    """Drop every user this process has cached (a signal receiver: any user/group change)."""
    global _current
    _current = next(_generation)


class CachedModelBackend(ModelBackend):
    """`ModelBackend` whose `get_user` reads through this process's cache (see the module)."""

    def get_user(self, user_id: Any) -> Any:
        seconds = getattr(settings, "AUTH_USER_CACHE_SECONDS", 0)
        if not seconds:
            return super().get_user(user_id)
        cache = caches[CACHE_ALIAS]
        key = f"fundportal:auth-user:{_current}:{user_id}"
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                self.get_all_permissions(user)  # loaded now, cached with the user
                cache.set(key, user, timeout=seconds)
        return user


def connect_signals() -> None:
    """Called by the app's `ready()`: user and group changes drop the cached users."""
    user = get_user_model()
    for sender in (user, Group):
        post_save.connect(forget_users, sender=sender, dispatch_uid=f"forget_users_save_{sender.__name__}")
        post_delete.connect(forget_users, sender=sender, dispatch_uid=f"forget_users_delete_{sender.__name__}")
    for through in (user.groups.through, user.user_permissions.through, Group.permissions.through):
        m2m_changed.connect(forget_users, sender=through, dispatch_uid=f"forget_users_m2m_{through.__name__}")
