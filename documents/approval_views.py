"""Four eyes on the document page: Submit and Approve (POST only, CSRF-protected).

Submitting needs edit rights for the document's fund, approving the approve permission for it
(both checked by the service through the request's access scope). A refused step (approving
one's own change, approving twice, a draft not submitted) comes back to the document page with
the reason and writes nothing; a write that raced it (a restatement, an entry) is the 409 page
naming who changed what (the middleware's, from the Conflict).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views import View

from documents import approval
from fundportal.domain.errors import ApprovalRefused
from fundportal.messages import describe
from fundportal.web.mixins import ScopedMixin


class ApprovalStepView(ScopedMixin, View):
    """POST: one approval step on a document, then back to its page with a message."""

    http_method_names = ["post"]
    step: Any = None
    done = ""

    def post(self, request: HttpRequest, document_id: str) -> HttpResponse:
        revision = request.POST.get("expected_revision", "")
        try:
            document = type(self).step(
                document_id=document_id,
                user=request.user.get_username(),
                expected_revision=int(revision) if revision.isdigit() else None,
                token=request.POST.get("token") or None,
                scope=self.scope,
            )
        except ApprovalRefused as error:
            messages.error(request, describe(error))
        else:
            messages.success(request, f"Document {document_id} {self.done} (revision {document.revision}).")
        return redirect("documents:detail", document_id=document_id)


class SubmitView(ApprovalStepView):
    step = approval.document_submit
    done = "submitted for approval"


class ApproveView(ApprovalStepView):
    step = approval.document_approve
    done = "approved: its entries now count in the figures"
