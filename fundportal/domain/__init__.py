"""The domain: the ground floor that imports nothing of ours (`tests/unit/test_domain_imports.py`).

`kinds` (kinds, statuses, id rules), `model`, `position_entries`, `audit_trail` and
`position_register` (entities as plain values and the register's rules), `errors` (data only;
words are chosen in `fundportal.messages`), `money`, `entries`, `figures`, `figures_builder` and
`ratios` (the one computation of every figure), `returns` (IRR), `amounts`, `dates`, `carry`. Pages, CSV
exports, management commands and the store all call in here.
"""
