"""Coverage in the admin: who covers what (by fund, group or user), and on each group's and
user's own page the funds it covers and, for an LP user, the investors it is."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User

from .models import FundCoverage, InvestorLink


@admin.register(FundCoverage)
class FundCoverageAdmin(admin.ModelAdmin):
    list_display = ("fund_id", "holder", "can_edit", "can_approve", "granted_at")
    list_filter = ("can_edit", "can_approve", "group", "fund_id")
    search_fields = ("fund_id", "group__name", "user__username")
    autocomplete_fields = ("group", "user")
    ordering = ("fund_id",)


@admin.register(InvestorLink)
class InvestorLinkAdmin(admin.ModelAdmin):
    list_display = ("user", "investor_id", "granted_at")
    search_fields = ("investor_id", "user__username")
    autocomplete_fields = ("user",)


class GroupCoverageInline(admin.TabularInline):
    model = FundCoverage
    fk_name = "group"
    exclude = ("user",)
    extra = 0


class UserCoverageInline(admin.TabularInline):
    model = FundCoverage
    fk_name = "user"
    exclude = ("group",)
    extra = 0


class InvestorLinkInline(admin.TabularInline):
    model = InvestorLink
    extra = 0


admin.site.unregister(Group)
admin.site.unregister(User)


@admin.register(Group)
class CoveringGroupAdmin(GroupAdmin):
    inlines = (GroupCoverageInline,)


@admin.register(User)
class CoveringUserAdmin(UserAdmin):
    inlines = (UserCoverageInline, InvestorLinkInline)
