"""The production CloudFormation template (fundportal/ops/cloudformation.py): what it holds, and
that cfn-lint and checkov pass it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cfnlint.api
import pytest

from fundportal.ops.cloudformation import TABLE_RESOURCE, cloudformation_template
from fundportal.ops.iam import policy_document
from fundportal.store.roles import Role
from fundportal.store.schema import TABLE, TTL_ATTRIBUTE

ROOT = Path(__file__).resolve().parents[2]
# checkov pins older boto3/botocore than the portal: it lives in its own venv (`make checkov`).
CHECKOV = Path(os.environ.get("CHECKOV", ROOT / "var" / "checkov" / "bin" / "checkov"))


@pytest.fixture(scope="module")
def template() -> dict:
    return cloudformation_template("investment_fund")


def resources_of(template: dict, kind: str) -> dict[str, dict]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def test_the_table_has_streams_ttl_insights_pitr_and_deletion_protection(template):
    table = template["Resources"][TABLE_RESOURCE]["Properties"]
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert table["TimeToLiveSpecification"] == {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}
    assert table["ContributorInsightsSpecification"] == {"Enabled": True}
    assert all(i["ContributorInsightsSpecification"] == {"Enabled": True} for i in table["GlobalSecondaryIndexes"])
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == [i.physical_name for i in TABLE.indexes]
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["DeletionProtectionEnabled"] is True
    assert template["Resources"][TABLE_RESOURCE]["DeletionPolicy"] == "Retain"
    assert template["Outputs"]["StreamArn"]["Value"] == {"Fn::GetAtt": [TABLE_RESOURCE, "StreamArn"]}


def test_a_customer_managed_key_is_used_only_when_given(template):
    sse = template["Resources"][TABLE_RESOURCE]["Properties"]["SSESpecification"]
    assert sse["SSEEnabled"] is True and sse["SSEType"] == "KMS"
    condition, key, otherwise = sse["KMSMasterKeyId"]["Fn::If"]
    assert template["Conditions"][condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "KmsKeyArn"}, ""]}]}
    assert key == {"Ref": "KmsKeyArn"} and otherwise == {"Ref": "AWS::NoValue"}
    assert template["Parameters"]["KmsKeyArn"]["Default"] == ""
    assert template["Resources"]["TableKeyPolicy"]["Condition"] == condition


def test_throttling_and_latency_alarms_watch_the_table_indexes_and_operations(template):
    alarms = [a["Properties"] for a in resources_of(template, "AWS::CloudWatch::Alarm").values()]
    metrics = {a["MetricName"] for a in alarms}
    assert {"ReadThrottleEvents", "WriteThrottleEvents", "ThrottledRequests", "SuccessfulRequestLatency"} <= metrics
    watched_indexes = {d["Value"] for a in alarms for d in a["Dimensions"] if d["Name"] == "GlobalSecondaryIndexName"}
    assert watched_indexes == TABLE.physical_names()
    latency = {
        d["Value"]
        for a in alarms
        if a["MetricName"] == "SuccessfulRequestLatency"
        for d in a["Dimensions"]
        if d["Name"] == "Operation"
    }
    assert {"GetItem", "Query", "TransactWriteItems", "BatchWriteItem"} <= latency


def test_one_role_per_role_of_the_code_with_the_declared_policy(template):
    roles = resources_of(template, "AWS::IAM::Role")
    assert set(roles) == {"WebRole", "WorkerRole", "OperatorRole"}
    policies = resources_of(template, "AWS::IAM::ManagedPolicy")
    for role in Role:
        name = role.value.capitalize()
        assert {"Ref": f"{name}Policy"} in roles[f"{name}Role"]["Properties"]["ManagedPolicyArns"]
        expected = policy_document(
            role, {"Fn::GetAtt": [TABLE_RESOURCE, "Arn"]}, {"Fn::Sub": "${FundTable.Arn}/index/*"}
        )
        assert policies[f"{name}Policy"]["Properties"]["PolicyDocument"] == expected


def test_cfn_lint_finds_nothing(template):
    matches = cfnlint.api.lint(json.dumps(template))
    assert [str(m) for m in matches] == []


@pytest.mark.slow
def test_checkov_has_no_failed_checks(template, tmp_path):
    if not CHECKOV.exists():
        pytest.skip(f"checkov is not installed at {CHECKOV} (make checkov)")
    path = tmp_path / "fund-table.json"
    path.write_text(json.dumps(template))
    done = subprocess.run(
        [str(CHECKOV), "-f", str(path), "--framework", "cloudformation", "--skip-download", "-o", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(done.stdout)
    assert report["summary"]["failed"] == 0, report["results"]["failed_checks"]
    assert report["summary"]["passed"] > 0 and report["summary"]["parsing_errors"] == 0
