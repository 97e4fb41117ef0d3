"""Django models of the project. Fund data lives in DynamoDB, not here: the one model below
has no table and exists only to own the permission that guards every write to fund data."""

from __future__ import annotations

from django.db import models

EDIT_PERMISSION = "fundportal.edit_fund_data"
EDITORS_GROUP = "Fund editors"


class FundData(models.Model):
    """Anchor for the `fundportal.edit_fund_data` permission (no table, never queried)."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [("edit_fund_data", "Can edit fund data")]
        verbose_name = "fund data"
        verbose_name_plural = "fund data"

    def __str__(self) -> str:
        return "fund data"
