from django.conf import settings
from django.http import HttpRequest

from fundportal.viewmodels import memo_reverse

# The layout's links (templates/jinja2/layout.html): the same on every page.
LAYOUT_LINKS = {
    "documents": "documents:list",
    "funds": "funds:list",
    "admin": "admin:index",
    "search": "documents:search",
    "logout": "logout",
}


def layout_urls(request: HttpRequest) -> dict:
    """The layout's URLs through the process-wide `reverse()` cache: `{% url %}` reverses each
    one on every page (~15 µs apiece, five a page)."""
    url = memo_reverse()
    return {"layout_urls": {key: url(name) for key, name in LAYOUT_LINKS.items()}}


def dynamodb_footer(request: HttpRequest) -> dict:
    """Expose the request's DynamoDB collector to staff users (and everyone in DEBUG)."""
    user = getattr(request, "user", None)
    show = settings.DEBUG or (settings.DYNAMODB_FOOTER and user is not None and user.is_staff)
    return {"dynamodb_requests": getattr(request, "dynamodb", None) if show else None}
