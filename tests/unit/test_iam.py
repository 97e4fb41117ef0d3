"""The IAM policies generated from the declaration of each role's operations (fundportal/ops/iam.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command

from fundportal.ops.iam import example_policy, readme_generated_part, readme_section
from fundportal.store.roles import GRANTS, Role

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_iam_section_is_the_generated_one():
    assert readme_generated_part(README.read_text()) == readme_section(), (
        "README's IAM section differs from fundportal/store/roles.py: paste "
        "`manage.py iam_policy --format markdown` over it"
    )


def test_every_declared_action_is_granted_and_nothing_more():
    for role, grant in GRANTS.items():
        policy = example_policy(role, "funds")
        granted = {action for statement in policy["Statement"] for action in statement["Action"]}
        assert granted == {f"dynamodb:{a}" for a in grant.actions | grant.transaction_parts}
        assert all("*" not in action for action in granted)


def test_transaction_parts_are_allowed_only_inside_a_transaction():
    for role in Role:
        statements = example_policy(role, "funds")["Statement"]
        (parts,) = [s for s in statements if "dynamodb:PutItem" in s["Action"]]
        assert parts["Condition"] == {"StringEquals": {"dynamodb:EnclosingOperation": "TransactWriteItems"}}
        assert all("dynamodb:PutItem" not in s["Action"] for s in statements if s is not parts)


def test_index_queries_are_granted_on_the_tables_indexes_only():
    statements = example_policy(Role.WEB, "funds", "eu-west-1", "111122223333")["Statement"]
    (indexes,) = [s for s in statements if s["Sid"] == "IndexReads"]
    assert indexes["Action"] == ["dynamodb:Query"]
    assert indexes["Resource"] == "arn:aws:dynamodb:eu-west-1:111122223333:table/funds/index/*"


def test_known_gaps_of_the_former_policy_are_declared():
    assert "BatchWriteItem" not in GRANTS[Role.WEB].actions  # the web import is a job: the worker batch-writes
    assert "BatchWriteItem" in GRANTS[Role.WORKER].actions
    assert {"UpdateTable", "Query", "GetItem"} <= GRANTS[Role.OPERATOR].actions  # index upgrades, seed reads
    assert "Scan" not in GRANTS[Role.WEB].actions | GRANTS[Role.WORKER].actions


def test_iam_policy_command_prints_the_roles_policy():
    out = io.StringIO()
    call_command("iam_policy", role="worker", table="funds", account="111122223333", stdout=out)
    assert json.loads(out.getvalue()) == example_policy(Role.WORKER, "funds", account="111122223333")
    markdown = io.StringIO()
    call_command("iam_policy", format="markdown", stdout=markdown)
    assert markdown.getvalue().strip() == readme_section()
