"""`/documents/import/fund-call/`: an editor enters a fund-wide call or distribution, previews
each LP's amount, and confirms it into one notice awaiting approval (`imports.fund_calls`).

The preview posts the form; the confirm posts the very same fields (hidden) and the request
token shown with the form, and the plan is made again from the table as it is then: what is
written is what the rules give at the confirm, and a second confirm of the same form finds the
notice the first created. Editors only (403 before anything is read), and edit rights on the
fund entered (the service's check)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.generic import FormView

from fundportal.domain.errors import DomainError
from fundportal.messages import describe
from fundportal.web.mixins import EditorRequiredMixin

from .fund_call_forms import FundCallForm
from .fund_calls import FundCallPlan, FundCallRefused, fund_call_create, fund_call_plan

CONFIRM = "confirm"


class FundCallView(EditorRequiredMixin, FormView):
    template_name = "imports/fund_call.html"
    form_class = FundCallForm

    def form_valid(self, form: FundCallForm) -> HttpResponse:  # type: ignore[override]
        try:
            plan = fund_call_plan(**form.plan_arguments(), scope=self.scope)
        except DomainError as error:  # a refused allocation, an unknown fund, no edit rights
            form.add_error(None, describe(error))
            return self.form_invalid(form)
        if CONFIRM not in self.request.POST:
            return self.render_to_response(self.get_context_data(form=form, plan=plan, confirm=_confirm(form)))
        try:
            result = fund_call_create(plan=plan, user=self.username, scope=self.scope)
        except FundCallRefused as error:
            for reason in error.reasons:
                form.add_error(None, reason)
            return self.form_invalid(form)
        _announce(self.request, plan, result.created)
        return redirect("documents:detail", document_id=result.document_id)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("plan", None)
        kwargs.setdefault("confirm", None)
        return super().get_context_data(**kwargs)


def _confirm(form: FundCallForm) -> FundCallForm:
    """The previewed form again, every field hidden, with the same request token."""
    confirm = FundCallForm(initial={**form.cleaned_data, "request_token": form.token})
    for field in confirm.fields.values():
        field.widget = forms.HiddenInput()
    return confirm


def _announce(request: HttpRequest, plan: FundCallPlan, created: bool) -> None:
    what = "capital call" if plan.purpose.is_call else "distribution"
    if created:
        messages.success(
            request,
            f"The {what} notice {plan.document_id} was created for {len(plan.lines)} positions; "
            "it awaits another user's approval.",
        )
    else:
        messages.info(request, f"This {what} was already created as {plan.document_id}; nothing more was written.")
