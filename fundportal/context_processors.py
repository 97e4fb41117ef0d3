from django.conf import settings
from django.http import HttpRequest


def dynamodb_footer(request: HttpRequest) -> dict:
    """Expose the request's DynamoDB collector to staff users (and everyone in DEBUG)."""
    user = getattr(request, "user", None)
    show = settings.DEBUG or (settings.DYNAMODB_FOOTER and user is not None and user.is_staff)
    return {"dynamodb_requests": getattr(request, "dynamodb", None) if show else None}
