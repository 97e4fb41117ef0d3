"""Editors' pages to remove a position with no entries and to merge a mistyped position into the
right one (`positions.merging`): a confirmation page (GET), the change (POST), a refusal shown
on the page with nothing written."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.generic import FormView

from fundportal.domain.errors import NotFound, PositionChangeRefused
from fundportal.domain.kinds import validate_id
from fundportal.messages import describe
from fundportal.store.uow import RegisterChanged
from fundportal.web.mixins import EditorRequiredMixin
from positions.merge_selectors import merge_choice, position_to_change
from positions.merging import position_merge, position_remove


class RemoveForm(forms.Form):
    """Nothing to fill in: the POST is the confirmation."""


class MergeForm(forms.Form):
    target = forms.CharField(
        label="Merge into position",
        max_length=64,
        widget=forms.TextInput(attrs={"list": "merge-candidates", "autocomplete": "off"}),
        help_text="The right position: same fund, investor and currency. Its entries stay; this one's move to it.",
    )

    def clean_target(self) -> str:
        try:
            return validate_id(self.cleaned_data["target"].strip(), "position id")
        except ValueError as error:
            raise forms.ValidationError(describe(error)) from None


class _PositionChangeView(EditorRequiredMixin, FormView):
    template_engine = "jinja2"

    def refused(self, form: forms.Form, error: Exception, status: int) -> HttpResponse:
        form.add_error(None, describe(error))
        return self.render_to_response(self.get_context_data(form=form), status=status)


class PositionRemoveView(_PositionChangeView):
    """GET: the confirmation (one GetItem of the register); POST: the removal."""

    form_class = RemoveForm
    template_name = "positions/remove.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        position_id = self.kwargs["position_id"]
        context.update(position_id=position_id, register=position_to_change(position_id=position_id, scope=self.scope))
        return context

    def form_valid(self, form: forms.Form) -> HttpResponse:
        position_id = self.kwargs["position_id"]
        try:
            removed = position_remove(position_id=position_id, user=self.username, scope=self.scope)
        except PositionChangeRefused as error:
            return self.refused(form, error, 409)
        except RegisterChanged:
            form.add_error(None, f"{position_id} is changing right now (an entry was just written); try again.")
            return self.render_to_response(self.get_context_data(form=form), status=409)
        messages.success(self.request, f"Position {position_id} removed (it had no entries).")
        return redirect("funds:detail", fund_id=removed.fund_id)


class PositionMergeView(_PositionChangeView):
    """GET: the form, with the investor's other positions of the fund offered; POST: the merge."""

    form_class = MergeForm
    template_name = "positions/merge.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        position_id = self.kwargs["position_id"]
        choice = merge_choice(position_id=position_id, scope=self.scope)
        context.update(position_id=position_id, register=choice.register, candidates=choice.candidates)
        return context

    def form_valid(self, form: MergeForm) -> HttpResponse:
        source, target = self.kwargs["position_id"], form.cleaned_data["target"]
        try:
            result = position_merge(source=source, target=target, user=self.username, scope=self.scope)
        except PositionChangeRefused as error:
            return self.refused(form, error, 409)
        except NotFound as error:
            form.add_error("target", describe(error))
            return self.render_to_response(self.get_context_data(form=form), status=400)
        except RegisterChanged:
            form.add_error(None, f"{source} or {target} is changing right now (an entry was just written); try again.")
            return self.render_to_response(self.get_context_data(form=form), status=409)
        messages.success(
            self.request, f"{source} merged into {target}: {result.moved} entries moved; {source} is removed."
        )
        return redirect("positions:detail", position_id=target)
