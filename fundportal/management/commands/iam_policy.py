"""Print the IAM policy of a deployed role, generated from fundportal/store/roles.py."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fundportal.management.output import PipeSafeMixin
from fundportal.ops.iam import EXAMPLE_ACCOUNT, EXAMPLE_REGION, example_policy, readme_section
from fundportal.store.client import table_name
from fundportal.store.roles import Role


class Command(PipeSafeMixin, BaseCommand):
    help = (
        "Print the least-privilege IAM policy of a role (web, worker, operator) from the one "
        "declaration of the DynamoDB operations its code calls. Example: "
        "manage.py iam_policy --role web --region eu-west-1 --account 123456789012"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", choices=[r.value for r in Role], default=Role.WEB.value, help="(web)")
        parser.add_argument("--table", help="table name (default: settings.DYNAMODB_TABLE)")
        parser.add_argument("--region", default=EXAMPLE_REGION, help=f"({EXAMPLE_REGION})")
        parser.add_argument("--account", default=EXAMPLE_ACCOUNT, help="AWS account id")
        parser.add_argument(
            "--format",
            choices=("json", "markdown"),
            default="json",
            help="json: one role's policy; markdown: the README's section for every role (json)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["format"] == "markdown":
            self.stdout.write(readme_section())
            return
        name = options["table"] or table_name()
        policy = example_policy(Role(options["role"]), name, options["region"], options["account"])
        self.stdout.write(json.dumps(policy, indent=2))
