"""Index versions in the one schema definition (fundportal/store/schema.py)."""

from __future__ import annotations

from dataclasses import replace

from fundportal.store.schema import POSITION_INDEX, TABLE, describe_differences, is_retired


def test_an_index_keeps_its_name_until_its_definition_changes():
    index = TABLE.index(POSITION_INDEX)
    assert index.physical_name == POSITION_INDEX
    assert replace(index, version=3).physical_name == f"{POSITION_INDEX}_v3"
    assert TABLE.physical_name("not_an_index") == "not_an_index"


def test_earlier_versions_are_retired_and_other_indexes_are_drift():
    changed = replace(
        TABLE, indexes=tuple(replace(i, version=2) if i.name == POSITION_INDEX else i for i in TABLE.indexes)
    )
    assert is_retired(POSITION_INDEX, changed)
    assert not is_retired(f"{POSITION_INDEX}_v2", changed)
    assert is_retired(f"{POSITION_INDEX}_v2", replace(changed, indexes=(replace(changed.indexes[1], version=3),)))
    assert not is_retired("GSI_Someone_Else", changed)
    live = {
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "GlobalSecondaryIndexes": [
            {**index.to_api(), "IndexName": name}
            for index in changed.indexes
            for name in ({index.physical_name, index.name} if index.name == POSITION_INDEX else {index.name})
        ]
        + [{**TABLE.indexes[0].to_api(), "IndexName": "GSI_Someone_Else"}],
    }
    assert describe_differences(live, changed) == ["index GSI_Someone_Else is not in the definition"]
