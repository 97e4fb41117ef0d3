"""A speed-up, kept apart: the Jinja2 `static()` global looks each static file's URL up once
per process (per script prefix), not on every page.

A static file's URL depends only on the settings (`STATIC_URL`, `STORAGES`, `DEBUG`), the script
prefix and the file's name; the storage's answer (its manifest's hashed name in production) does
not change while a process runs. The layout asks for it on every page: Django's `static()` each
time costs a storage look-up and URL quoting. The cache is keyed by the script prefix and the
name, and emptied whenever a setting changes (Django's `setting_changed` signal); an unknown file
raises as `static()` does, and is not kept.

On by default; `FUNDPORTAL_TEMPLATE_STATIC_CACHE=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) leaves
Django's `static()`. `PerfConfig.ready()` installs it through
`fundportal.jinja2.add_environment_customizer`.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import get_script_prefix
from jinja2 import Environment

GLOBAL = "static"
CACHED_FILES = 1_000


@functools.lru_cache(maxsize=CACHED_FILES)
def _url(prefix: str, path: str) -> str:
    """`static(path)` while the script prefix is `prefix`."""
    return static(path)


def cached_static(path: str) -> str:
    """Django's `static(path)`, once per (script prefix, path) until a setting changes."""
    return _url(get_script_prefix(), path)


@receiver(setting_changed)
def _forget_urls(**kwargs: Any) -> None:
    _url.cache_clear()


def install(env: Environment) -> None:
    env.globals[GLOBAL] = cached_static
