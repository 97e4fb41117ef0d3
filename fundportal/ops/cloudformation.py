"""The production CloudFormation template, from the one schema (`fundportal.store.schema`) and the
one declaration of each role's operations (`fundportal.store.roles`): printed by
`manage.py export_table_definition`, checked by cfn-lint and checkov in the tests.

It holds the table (on-demand, point-in-time recovery, deletion protection, Streams with new and
old images for downstream consumers, TTL on `expires_at`, Contributor Insights on the table and
every index, encryption with the AWS-managed key or a customer-managed one given as a parameter),
CloudWatch alarms for throttling and latency, and one managed policy and one IAM role per role.
"""

from __future__ import annotations

from typing import Any

from fundportal.store.roles import GRANTS, Role
from fundportal.store.schema import TABLE, TTL_ATTRIBUTE, TableDef

from .iam import policy_document

TABLE_RESOURCE = "FundTable"
USE_CUSTOMER_KEY = "UseCustomerManagedKey"
HAS_ALARM_TOPIC = "HasAlarmTopic"
NO_VALUE = {"Ref": "AWS::NoValue"}
TABLE_ARN = {"Fn::GetAtt": [TABLE_RESOURCE, "Arn"]}
INDEX_ARNS = {"Fn::Sub": "${" + TABLE_RESOURCE + ".Arn}/index/*"}

# Operations the portal calls on a request path and the average latency (ms) that deserves a look:
# a GetItem is single-digit milliseconds; a 100-action transaction or a 25-item batch takes longer.
LATENCY_ALARM_MS = {"GetItem": 20, "BatchGetItem": 50, "Query": 50, "TransactWriteItems": 150, "BatchWriteItem": 150}
# Who assumes each role: the web and worker services run as containers (ECS tasks); operators
# assume their role from the account (an IAM user or SSO session allowed to).
SERVICE_ROLES = (Role.WEB, Role.WORKER)


def _name(suffix: str) -> dict[str, str]:
    return {"Fn::Sub": "${TableName}-" + suffix}


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace("-", "_").split("_"))


def table_resource(name_param: str, definition: TableDef) -> dict[str, Any]:
    kwargs = definition.create_table_kwargs(name_param)
    indexes = [
        {**index, "ContributorInsightsSpecification": {"Enabled": True}} for index in kwargs["GlobalSecondaryIndexes"]
    ]
    return {
        "Type": "AWS::DynamoDB::Table",
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": {
            "TableName": {"Ref": "TableName"},
            "BillingMode": kwargs["BillingMode"],
            "AttributeDefinitions": kwargs["AttributeDefinitions"],
            "KeySchema": kwargs["KeySchema"],
            "GlobalSecondaryIndexes": indexes,
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
            "SSESpecification": {
                "SSEEnabled": True,
                "SSEType": "KMS",
                "KMSMasterKeyId": {"Fn::If": [USE_CUSTOMER_KEY, {"Ref": "KmsKeyArn"}, NO_VALUE]},
            },
            "StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"},
            "TimeToLiveSpecification": {"AttributeName": TTL_ATTRIBUTE, "Enabled": True},
            "ContributorInsightsSpecification": {"Enabled": True},
            "DeletionProtectionEnabled": True,
            "Tags": [{"Key": "application", "Value": "fundportal"}],
        },
    }


def _alarm(
    description: str, metric: str, dimensions: list[dict[str, Any]], statistic: str, threshold: float, name: str
) -> dict[str, Any]:
    return {
        "Type": "AWS::CloudWatch::Alarm",
        "Properties": {
            "AlarmName": _name(name),
            "AlarmDescription": description,
            "Namespace": "AWS/DynamoDB",
            "MetricName": metric,
            "Dimensions": dimensions,
            "Statistic": statistic,
            "Period": 60,
            "EvaluationPeriods": 5,
            "DatapointsToAlarm": 2,
            "Threshold": threshold,
            "ComparisonOperator": "GreaterThanThreshold",
            "TreatMissingData": "notBreaching",
            "AlarmActions": {"Fn::If": [HAS_ALARM_TOPIC, [{"Ref": "AlarmTopicArn"}], NO_VALUE]},
        },
    }


def alarms(definition: TableDef) -> dict[str, dict[str, Any]]:
    """Throttling on the table, on each index and per operation; average latency per operation."""
    table: dict[str, Any] = {"Name": "TableName", "Value": {"Ref": TABLE_RESOURCE}}
    found = {
        "ReadThrottleAlarm": _alarm(
            "Reads of the table are throttled", "ReadThrottleEvents", [table], "Sum", 0, "read-throttle"
        ),
        "WriteThrottleAlarm": _alarm(
            "Writes to the table are throttled", "WriteThrottleEvents", [table], "Sum", 0, "write-throttle"
        ),
    }
    for index in definition.indexes:
        dimensions = [table, {"Name": "GlobalSecondaryIndexName", "Value": index.physical_name}]
        found[f"{_camel(index.physical_name)}WriteThrottleAlarm"] = _alarm(
            f"Writes to index {index.physical_name} are throttled (back-pressure cancels base-table writes)",
            "WriteThrottleEvents",
            dimensions,
            "Sum",
            0,
            f"{index.physical_name}-write-throttle",
        )
    for operation, ms in LATENCY_ALARM_MS.items():
        dimensions = [table, {"Name": "Operation", "Value": operation}]
        found[f"{operation}ThrottledRequestsAlarm"] = _alarm(
            f"{operation} requests are throttled", "ThrottledRequests", dimensions, "Sum", 0, f"{operation}-throttled"
        )
        found[f"{operation}LatencyAlarm"] = _alarm(
            f"{operation} takes more than {ms} ms on average",
            "SuccessfulRequestLatency",
            dimensions,
            "Average",
            ms,
            f"{operation}-latency",
        )
    return found


def _trust(role: Role) -> dict[str, Any]:
    if role in SERVICE_ROLES:
        principal: dict[str, Any] = {"Service": {"Ref": "ServicePrincipal"}}
    else:
        principal = {"AWS": {"Fn::Sub": "arn:${AWS::Partition}:iam::${AWS::AccountId}:root"}}
    statement = {"Effect": "Allow", "Principal": principal, "Action": "sts:AssumeRole"}
    return {"Version": "2012-10-17", "Statement": [statement]}


def _key_policy() -> dict[str, Any]:
    """Use of the customer-managed key through DynamoDB only (when the key is given)."""
    return {
        "Type": "AWS::IAM::ManagedPolicy",
        "Condition": USE_CUSTOMER_KEY,
        "Properties": {
            "Description": "Use of the table's customer-managed KMS key, through DynamoDB only",
            "PolicyDocument": {
                "Version": "2012-10-17",
                "Statement": [
                    {
                        "Sid": "TableKeyViaDynamoDB",
                        "Effect": "Allow",
                        "Action": ["kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*"],
                        "Resource": {"Ref": "KmsKeyArn"},
                        "Condition": {
                            "StringEquals": {"kms:ViaService": {"Fn::Sub": "dynamodb.${AWS::Region}.amazonaws.com"}}
                        },
                    }
                ],
            },
        },
    }


def iam_resources() -> dict[str, dict[str, Any]]:
    """One managed policy (from the declaration) and one role per deployed role."""
    found: dict[str, dict[str, Any]] = {"TableKeyPolicy": _key_policy()}
    for role, grant in GRANTS.items():
        policy, name = f"{_camel(role)}Policy", f"{_camel(role)}Role"
        found[policy] = {
            "Type": "AWS::IAM::ManagedPolicy",
            "Properties": {
                "Description": f"DynamoDB operations of the {role} role: {grant.used_by}"[:1000],
                "PolicyDocument": policy_document(role, TABLE_ARN, INDEX_ARNS),
            },
        }
        found[name] = {
            "Type": "AWS::IAM::Role",
            "Properties": {
                "Description": f"Fund portal {role} role",
                "AssumeRolePolicyDocument": _trust(role),
                "ManagedPolicyArns": [
                    {"Ref": policy},
                    {"Fn::If": [USE_CUSTOMER_KEY, {"Ref": "TableKeyPolicy"}, NO_VALUE]},
                ],
                "Tags": [{"Key": "application", "Value": "fundportal"}],
            },
        }
    return found


PARAMETERS = {
    "KmsKeyArn": {
        "Type": "String",
        "Default": "",
        "AllowedPattern": "^$|^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[a-zA-Z0-9-]+$",
        "Description": "ARN of a customer-managed KMS key to encrypt the table with; empty: the AWS-managed key",
    },
    "AlarmTopicArn": {
        "Type": "String",
        "Default": "",
        "Description": "SNS topic the alarms notify; empty: alarms without actions",
    },
    "ServicePrincipal": {
        "Type": "String",
        "Default": "ecs-tasks.amazonaws.com",
        "Description": "The AWS service that runs the web and worker processes and assumes their roles",
    },
}


def cloudformation_template(name: str, definition: TableDef = TABLE) -> dict[str, Any]:
    """The whole template; `name` is the default of its TableName parameter."""
    roles = {f"{_camel(role)}RoleArn": {"Value": {"Fn::GetAtt": [f"{_camel(role)}Role", "Arn"]}} for role in GRANTS}
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": "Fund portal: the DynamoDB table, its indexes, alarms and the IAM roles of the code using it.",
        "Parameters": {
            "TableName": {"Type": "String", "Default": name, "Description": "DynamoDB table name (DYNAMODB_TABLE)"},
            **PARAMETERS,
        },
        "Conditions": {
            USE_CUSTOMER_KEY: {"Fn::Not": [{"Fn::Equals": [{"Ref": "KmsKeyArn"}, ""]}]},
            HAS_ALARM_TOPIC: {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmTopicArn"}, ""]}]},
        },
        "Resources": {
            TABLE_RESOURCE: table_resource(name, definition),
            **alarms(definition),
            **iam_resources(),
        },
        "Outputs": {
            "TableName": {"Value": {"Ref": TABLE_RESOURCE}},
            "TableArn": {"Value": TABLE_ARN},
            "StreamArn": {"Value": {"Fn::GetAtt": [TABLE_RESOURCE, "StreamArn"]}},
            **roles,
        },
    }
