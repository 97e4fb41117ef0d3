"""The DynamoDB operations each deployed role's code calls, declared once.

Three roles run the portal's code: `web` (gunicorn serving pages, the admin, the web import's
preview and its job's progress page), `worker` (`manage.py db_worker`: the background import
jobs, which write the files) and `operator` (management commands run
from the shell: create_table, seed_demo, import_notice, backfill_indexes, verify_positions...).
The IAM policy of each role is generated from this declaration (`fundportal.ops.iam`, printed by
`manage.py iam_policy`, embedded in `export_table_definition`), and the test suite records the
operations each role's code really calls and fails on one its role lacks.

IAM authorises a TransactWriteItems by its parts: each Put, Update, Delete and ConditionCheck of
the transaction needs `PutItem`, `UpdateItem`, `DeleteItem` or `ConditionCheckItem`. Those parts
are declared apart (`transaction_parts`) so the policy grants them only inside a transaction
(`dynamodb:EnclosingOperation`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    WEB = "web"
    WORKER = "worker"
    OPERATOR = "operator"


# The IAM action that authorises each part of a TransactWriteItems.
TRANSACTION_PART_ACTIONS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}
# Operations IAM authorises as other actions (a TransactGetItems part is a GetItem).
TRANSACT_GET = "TransactGetItems"
TRANSACT_WRITE = "TransactWriteItems"
# Control-plane operations act on the table only; the others also on its indexes (a Query of a GSI).
TABLE_ONLY_ACTIONS = frozenset({"CreateTable", "UpdateTable", "DescribeTable", "DeleteTable"})

READS = frozenset({"GetItem", "BatchGetItem", "Query"})
# UpdateItem: the fund summaries' ADD of a delta in the transaction that changes a register.
TRANSACTIONAL_WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"})


@dataclass(frozen=True)
class RoleGrant:
    """What one role may call: `actions` directly, `transaction_parts` only inside a
    TransactWriteItems. `used_by` says which code runs as the role (README, policy Sid)."""

    role: Role
    used_by: str
    actions: frozenset[str]
    transaction_parts: frozenset[str]

    def lacks(self, direct: Iterable[str], parts: Iterable[str]) -> list[str]:
        """The IAM actions among those called (`direct`, `parts` of transactions) this role lacks."""
        missing = {a for a in direct if a not in self.actions}
        missing |= {p for p in parts if p not in self.transaction_parts}
        return sorted(missing)


GRANTS: dict[Role, RoleGrant] = {
    grant.role: grant
    for grant in (
        RoleGrant(
            Role.WEB,
            "gunicorn: pages, edits, the admin dashboard, /healthz and the web import's preview "
            "(the import itself is a background job: the worker writes it)",
            READS | {"DescribeTable"},
            TRANSACTIONAL_WRITES,
        ),
        RoleGrant(
            Role.WORKER,
            "manage.py db_worker: background import jobs (validate again, BatchWriteItem the "
            "entries of new documents, transactions for registers and publishing)",
            READS | {"BatchWriteItem"},
            TRANSACTIONAL_WRITES,
        ),
        RoleGrant(
            Role.OPERATOR,
            "management commands from the shell: create_table (creates and upgrades indexes), "
            "seed_demo, import_notice, access_patterns, backfill_indexes, verify_positions "
            "--repair (the only Scan)",
            READS | {"DescribeTable", "CreateTable", "UpdateTable", "Scan", "BatchWriteItem", "UpdateItem"},
            TRANSACTIONAL_WRITES,
        ),
    )
}


def iam_actions(operation: str, parts: Iterable[str] = ()) -> tuple[set[str], set[str]]:
    """(direct actions, transaction-part actions) IAM checks for one call of `operation` whose
    transaction parts (for TransactWriteItems) are `parts` ("Put", "Delete", ...)."""
    if operation == TRANSACT_WRITE:
        return set(), {TRANSACTION_PART_ACTIONS[p] for p in parts}
    if operation == TRANSACT_GET:
        return {"GetItem"}, set()
    return {operation}, set()
