"""The attributes the capital account's kinds and the split calls and distributions keep beside
an entry's common ones (`entities._entry_map`). Each is absent when not given, so a seed entry's
item is exactly as it was."""

from __future__ import annotations

from fundportal.domain.kinds import CARRY_ACCRUED, FEE_GROSS, Kind

from .codecs import NUMBER, TEXT, Codec

# True kept as true, False left out (the seed's items carry none).
FLAG = Codec(lambda v: True if v else None, bool)

ENTRY_PARTS = {
    Kind.CAPITAL_CALL: (
        ("management_fee", "ManagementFee", NUMBER, None),
        ("partnership_expense", "PartnershipExpense", NUMBER, None),
        ("outside_commitment", "OutsideCommitment", FLAG, False),
    ),
    Kind.DISTRIBUTION: (
        ("return_of_capital", "ReturnOfCapital", NUMBER, None),
        ("gain", "Gain", NUMBER, None),
        ("income", "Income", NUMBER, None),
        ("recallable", "Recallable", NUMBER, None),
    ),
    Kind.MANAGEMENT_FEE: (("fee_line", "FeeLine", TEXT, FEE_GROSS),),
    Kind.CARRIED_INTEREST: (("carry_stage", "CarryStage", TEXT, CARRY_ACCRUED),),
}
