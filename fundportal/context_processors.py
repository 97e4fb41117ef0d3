from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

# The layout's links (templates/jinja2/layout.html): the same on every page.
LAYOUT_LINKS = {
    "documents": "documents:list",
    "funds": "funds:list",
    "admin": "admin:index",
    "search": "documents:search",
    "logout": "logout",
}


def layout_urls(request: HttpRequest) -> dict:
    """The layout's URLs, by Django's `reverse()`."""
    return {"layout_urls": {key: reverse(name) for key, name in LAYOUT_LINKS.items()}}


def dynamodb_footer(request: HttpRequest) -> dict:
    """Expose the request's DynamoDB collector to staff users (and everyone in DEBUG)."""
    user = getattr(request, "user", None)
    show = settings.DEBUG or (settings.DYNAMODB_FOOTER and user is not None and user.is_staff)
    return {"dynamodb_requests": getattr(request, "dynamodb", None) if show else None}
