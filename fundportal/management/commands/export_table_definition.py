"""Print the table and its indexes from the one schema definition (fundportal/store/schema.py),
as CreateTable parameters or as the production CloudFormation template (fundportal/ops/cloudformation.py)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin
from fundportal.ops.cloudformation import cloudformation_template
from fundportal.store.client import table_name
from fundportal.store.schema import TABLE


class Command(PipeSafeMixin, DynamoCommand):
    help = (
        "Print the table definition from fundportal/store/schema.py: a CloudFormation template (the "
        "table with its GSIs, PITR, Streams, TTL, Contributor Insights, encryption with an optional "
        "customer-managed key; throttling and latency alarms; one IAM role per role of the code) or "
        "the CreateTable parameters as JSON. Example: manage.py export_table_definition > fund-table.json"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--format", choices=("cloudformation", "json"), default="cloudformation", help="(cloudformation)"
        )
        parser.add_argument("--table", help="table name (default: settings.DYNAMODB_TABLE)")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["table"] or table_name()
        json_kwargs = options["format"] == "json"
        document = TABLE.create_table_kwargs(name) if json_kwargs else cloudformation_template(name)
        self.stdout.write(json.dumps(document, indent=2))
