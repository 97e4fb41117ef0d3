"""The signed-in user's own API tokens: make one (shown once, on the page that made it), list
them, revoke one. Django's session auth and CSRF protect the page; the API itself takes tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from api import tokens
from api.models import ApiToken


def signed_in(request: HttpRequest) -> Any:
    """The signed-in user (LoginRequiredMixin has turned anyone else away)."""
    return request.user


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name", help_text="What it is for, e.g. “Excel on my laptop”.")
    days = forms.IntegerField(
        min_value=1, max_value=tokens.MAX_DAYS, initial=tokens.DEFAULT_DAYS, label="Valid for (days)"
    )


class TokenListView(LoginRequiredMixin, View):
    template_name = "api/tokens.html"

    def context(self, request: HttpRequest, form: TokenForm, issued: str = "") -> dict[str, Any]:
        return {
            "form": form,
            "issued": issued,
            "tokens": ApiToken.objects.filter(user=signed_in(request)),
        }

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template_name, self.context(request, TokenForm()))

    def post(self, request: HttpRequest) -> HttpResponse:
        form = TokenForm(request.POST)
        if not form.is_valid():
            return render(request, self.template_name, self.context(request, form), status=400)
        issued = tokens.issue(request.user, form.cleaned_data["name"], form.cleaned_data["days"])
        # Shown once, in this response only; never stored, never in a redirect.
        response = render(request, self.template_name, self.context(request, TokenForm(), issued.token))
        response["Cache-Control"] = "no-store"
        return response


class TokenRevokeView(LoginRequiredMixin, View):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        record = get_object_or_404(ApiToken, pk=pk, user=signed_in(request))  # another user's: 404
        tokens.revoke(record)
        return redirect("api_tokens:list")
