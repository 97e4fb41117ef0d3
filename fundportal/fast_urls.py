"""`reverse()` for links rendered hundreds of times on one page (a row per position).

Django's reverse() matches the URLconf on every call (~0.05 ms); a 1,000-position document
page needs thousands of links. For URL names whose arguments are plain `str` path segments,
reversing once with placeholder arguments and substituting the (quoted) values gives the
same URL. `tests/test_fast_urls.py` checks it against reverse() for every name used.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

from django.urls import get_script_prefix, get_urlconf, reverse

# What reverse() leaves unquoted in a path segment (django.urls.resolvers).
_SAFE = "!$&'()*+,;=/~:@"
# Values quote() would return unchanged (every valid id): skip the call.
_UNRESERVED = re.compile(r"[A-Za-z0-9_.\-~]*")


@lru_cache(maxsize=256)
def _template(urlconf: str | None, prefix: str, viewname: str, arity: int) -> tuple[str, tuple[str, ...]]:
    placeholders = tuple(f"fastreverse{i}placeholder" for i in range(arity))
    return reverse(viewname, urlconf=urlconf, args=placeholders), placeholders


class UrlTemplate:
    """A URL name reversed once; `format(*args)` fills in the segments."""

    def __init__(self, viewname: str, arity: int) -> None:
        self.pattern = _pattern(get_urlconf(), get_script_prefix(), viewname, arity)

    def format(self, *args: str) -> str:
        return self.pattern.format(
            *(value if _UNRESERVED.fullmatch(value) else quote(value, safe=_SAFE) for value in map(str, args))
        )


@lru_cache(maxsize=256)
def _pattern(urlconf: str | None, prefix: str, viewname: str, arity: int) -> str:
    """The reversed URL as a str.format pattern: '/documents/{0}/positions/{1}/'."""
    url, placeholders = _template(urlconf, prefix, viewname, arity)
    pattern = url.replace("{", "{{").replace("}", "}}")
    for index, placeholder in enumerate(placeholders):
        pattern = pattern.replace(placeholder, "{" + str(index) + "}", 1)
    return pattern


def fast_reverse(viewname: str, *args: str) -> str:
    """reverse(viewname, args=args) for URL patterns made of `<str:...>` segments."""
    return UrlTemplate(viewname, len(args)).format(*args)
