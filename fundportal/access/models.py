"""Who covers which fund, in Django's database (never DynamoDB): coverage rows granted to a
group or a user, the "all funds" and "approve" permissions, and the investors an LP user is."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models
from django.db.models import Q

ALL_FUNDS_PERMISSION = "access.cover_all_funds"
APPROVE_PERMISSION = "access.approve_fund_data"
ID_LENGTH = 64


class FundCoverage(models.Model):
    """One fund covered by a group or a user, with the rights on it beyond reading."""

    fund_id = models.CharField("fund id", max_length=ID_LENGTH)
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="fund_coverage")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="fund_coverage"
    )
    can_edit = models.BooleanField(
        "may edit", default=False, help_text="Record entries, restate and import in this fund."
    )
    can_approve = models.BooleanField("may approve", default=False)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("fund_id", "group__name", "user__username")
        permissions = [
            ("cover_all_funds", "Covers every fund (heads of operations)"),
            ("approve_fund_data", "May approve in every covered fund"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(group__isnull=False, user__isnull=True) | Q(group__isnull=True, user__isnull=False),
                name="coverage_for_one_group_or_user",
            ),
            models.UniqueConstraint(fields=("group", "fund_id"), name="one_coverage_per_group_and_fund"),
            models.UniqueConstraint(fields=("user", "fund_id"), name="one_coverage_per_user_and_fund"),
        ]
        verbose_name = "fund coverage"
        verbose_name_plural = "fund coverage"

    def __str__(self) -> str:
        return f"{self.holder} covers {self.fund_id}"

    @property
    def holder(self) -> str:
        if self.group is not None:
            return f"group {self.group.name}"
        return f"user {self.user.get_username()}" if self.user is not None else "nobody"


class InvestorLink(models.Model):
    """An LP user's investor: the user sees only this investor's positions, read-only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="investor_links")
    investor_id = models.CharField("investor id", max_length=ID_LENGTH)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("user__username", "investor_id")
        constraints = [models.UniqueConstraint(fields=("user", "investor_id"), name="one_link_per_user_and_investor")]

    def __str__(self) -> str:
        return f"{self.user.get_username()} is investor {self.investor_id}"
