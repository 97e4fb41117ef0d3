"""View mixins shared by the apps' pages: the request's access scope, and the write pages' guard."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from fundportal.access.scope import request_scope
from fundportal.domain.access import AccessScope


class ScopedMixin(LoginRequiredMixin):
    """A signed-in page that reads or writes within the user's access scope (`self.scope`,
    resolved once per request from Django's database and passed to selectors and services)."""

    request: HttpRequest

    @property
    def scope(self) -> AccessScope:
        return request_scope(self.request)


class EditorRequiredMixin(ScopedMixin):
    """403 (not a login redirect) for signed-in users who may edit no fund (viewers, LP users),
    checked before anything is read or written; which fund a write may touch is the service's
    check (`scope.require_edit`)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.user.is_authenticated and not request_scope(request).may_edit_somewhere:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    @property
    def username(self) -> str:
        return self.request.user.get_username()

    def to_document(self, document_id: str) -> HttpResponse:
        return redirect("documents:detail", document_id=document_id)

    def form_invalid(self, form: Any) -> HttpResponse:
        """Invalid input re-renders the form with its messages, as a 400."""
        return self.render_to_response(self.get_context_data(form=form), status=400)
