"""View mixins shared by the apps' write pages."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import PermissionRequiredMixin
from django.http import HttpResponse
from django.shortcuts import redirect

from fundportal.models import EDIT_PERMISSION


class EditorRequiredMixin(PermissionRequiredMixin):
    """403 (not a login redirect) for signed-in analysts without the edit permission."""

    permission_required = EDIT_PERMISSION
    raise_exception = True

    @property
    def username(self) -> str:
        return self.request.user.get_username()

    def to_document(self, document_id: str) -> HttpResponse:
        return redirect("documents:detail", document_id=document_id)

    def form_invalid(self, form: Any) -> HttpResponse:
        """Invalid input re-renders the form with its messages, as a 400."""
        return self.render_to_response(self.get_context_data(form=form), status=400)
