"""Print the table and its indexes from the one schema definition (fundportal/store/schema.py)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin
from fundportal.store.client import table_name
from fundportal.store.schema import TABLE, TableDef

RESOURCE_NAME = "FundTable"


def cloudformation_template(name: str, definition: TableDef = TABLE) -> dict[str, Any]:
    """An AWS::DynamoDB::Table resource for production: on-demand, point-in-time recovery,
    server-side encryption with the AWS-managed KMS key, deletion protection, and the GSIs."""
    kwargs = definition.create_table_kwargs(name)
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": "Fund portal: the single DynamoDB table and its global secondary indexes.",
        "Parameters": {
            "TableName": {"Type": "String", "Default": name, "Description": "DynamoDB table name (DYNAMODB_TABLE)"}
        },
        "Resources": {
            RESOURCE_NAME: {
                "Type": "AWS::DynamoDB::Table",
                "DeletionPolicy": "Retain",
                "UpdateReplacePolicy": "Retain",
                "Properties": {
                    "TableName": {"Ref": "TableName"},
                    "BillingMode": kwargs["BillingMode"],
                    "AttributeDefinitions": kwargs["AttributeDefinitions"],
                    "KeySchema": kwargs["KeySchema"],
                    "GlobalSecondaryIndexes": kwargs["GlobalSecondaryIndexes"],
                    "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
                    "SSESpecification": {"SSEEnabled": True, "SSEType": "KMS"},
                    "DeletionProtectionEnabled": True,
                    "Tags": [{"Key": "application", "Value": "fundportal"}],
                },
            }
        },
        "Outputs": {
            "TableName": {"Value": {"Ref": RESOURCE_NAME}},
            "TableArn": {"Value": {"Fn::GetAtt": [RESOURCE_NAME, "Arn"]}},
        },
    }


class Command(PipeSafeMixin, DynamoCommand):
    help = (
        "Print the table definition from fundportal/store/schema.py: a CloudFormation template "
        "(AWS::DynamoDB::Table, on-demand, point-in-time recovery, encryption, GSIs) or the CreateTable "
        "parameters as JSON. Example: manage.py export_table_definition > fund-table.json"
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
