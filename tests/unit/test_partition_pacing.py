"""Per-partition pacing: a key is written at full speed until DynamoDB throttles it, then paced
by its own token bucket (cut on each throttle, growing back to the partition limit); the bulk
writer asks the pacer before each request and reports what DynamoDB handed back; the import
installs the pacer the settings ask for, and without one nothing waits."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from bench.load_model import write_units as model_write_units
from fundportal.store import gateway as gateway_module
from fundportal.store import pacing
from fundportal.store.errors import TransactionCancelled
from fundportal.store.gateway import TableGateway
from fundportal.store.pacing import DECREASE, FLOOR, INCREASE, PartitionPacer, batch_units
from imports.pacing import import_pacer, import_pacing

DOC = (None, "NOTICE_1")
OTHER = (None, "NOTICE_2")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


def pacer(clock: Clock, ceiling: float = 1000.0) -> PartitionPacer:
    return PartitionPacer(ceiling, clock=clock, sleep=clock.sleep)


def test_a_key_never_throttled_is_written_without_waiting(clock):
    paced = pacer(clock)
    for _ in range(100):
        assert paced.before({DOC: 25.0}) == 0.0
    assert clock.slept == [] and paced.rate(DOC) is None


def test_only_a_throttled_key_is_paced_and_from_below_the_limit(clock):
    paced = pacer(clock)
    assert not paced.engaged
    paced.throttled([DOC])
    assert paced.engaged
    assert paced.rate(DOC) == pytest.approx(1000 * DECREASE)
    assert paced.rate(OTHER) is None


def test_a_paced_key_waits_for_its_tokens_and_others_do_not(clock):
    paced = pacer(clock)
    paced.throttled([DOC])
    rate = paced.rate(DOC)
    assert rate == pytest.approx(1000 * DECREASE)
    waited = sum(paced.before({DOC: 100.0}) for _ in range(21))  # 2,100 units: one second in hand
    assert waited == pytest.approx((2100 - rate) / rate, rel=0.1)
    assert paced.before({OTHER: 100.0}) == 0.0


def test_each_throttle_cuts_the_pace_and_it_grows_back_to_the_ceiling_not_past_it(clock):
    paced = pacer(clock)
    paced.throttled([DOC])
    paced.throttled([DOC])
    assert paced.rate(DOC) == pytest.approx(1000 * DECREASE * DECREASE)
    clock.now += 2
    assert paced.rate(DOC) == pytest.approx(1000 * DECREASE * DECREASE + 2 * 1000 * INCREASE)
    clock.now += 60
    assert paced.rate(DOC) == 1000


def test_the_pace_never_falls_below_its_floor(clock):
    paced = pacer(clock)
    for _ in range(30):
        paced.throttled([DOC])
    assert paced.rate(DOC) == pytest.approx(1000 * FLOOR)


def test_a_ceiling_must_be_positive(clock):
    with pytest.raises(ValueError, match="positive"):
        PartitionPacer(0)


def test_a_batch_is_charged_per_partition_on_the_table_and_each_index_by_the_model_s_rule():
    small = {"PK": {"S": "NOTICE_1"}, "SK": {"S": "CAPITAL_CALL#P1"}, "Amount": {"N": "1"}}
    large = {"PK": {"S": "NOTICE_1"}, "SK": {"S": "DISTRIBUTION#P1"}, "Blob": {"S": "x" * 3000}}
    units = batch_units("t", [{"PutRequest": {"Item": small}}, {"PutRequest": {"Item": large}}])
    assert units[(None, "NOTICE_1")] == 1 + 3
    assert pacing.write_units(3000) == model_write_units(3000) and pacing.write_units(10) == model_write_units(10)


def test_the_import_installs_the_adaptive_pacer_at_the_configured_ceiling(settings):
    settings.DYNAMODB_IMPORT_PACING = "adaptive"
    settings.DYNAMODB_PARTITION_WCU_PER_S = 800
    assert pacing.current() is None
    with import_pacing() as installed:
        assert pacing.current() is installed and installed is not None
        assert installed.ceiling == 800
    assert pacing.current() is None


def test_pacing_off_installs_nothing_and_a_wrong_mode_is_refused(settings):
    settings.DYNAMODB_IMPORT_PACING = "off"
    assert import_pacer() is None
    with import_pacing():
        assert pacing.current() is None
    settings.DYNAMODB_IMPORT_PACING = "fast"
    with pytest.raises(ImproperlyConfigured, match="DYNAMODB_IMPORT_PACING"):
        import_pacer()


class RecordingPacer(PartitionPacer):
    def __init__(self, engaged: bool = True) -> None:
        super().__init__(1000.0)
        self.asked: list[dict] = []
        self.throttles: list[dict] = []
        self.paces = engaged

    @property
    def engaged(self) -> bool:
        return self.paces

    def before(self, units):
        self.asked.append(dict(units))
        return 0.0

    def throttled(self, partitions):
        self.throttles.append(dict(partitions))


def _bulk_writer(monkeypatch, replies: list[dict]) -> tuple[TableGateway, list[dict]]:
    sent: list[dict] = []

    def call(operation, **params):
        sent.append(params)
        return replies.pop(0)

    monkeypatch.setattr(gateway_module, "call", call)
    monkeypatch.setattr(gateway_module, "backoff", lambda attempt: None)
    return TableGateway("paced_table"), sent


ITEMS = [{"PK": "NOTICE_1", "SK": f"CAPITAL_CALL#P{n}", "EntityType": "CapitalCall"} for n in range(3)]


def test_the_bulk_writer_asks_the_pacer_first_and_reports_what_dynamodb_handed_back(monkeypatch):
    handed_back = {"PutRequest": {"Item": {"PK": {"S": "NOTICE_1"}, "SK": {"S": "CAPITAL_CALL#P2"}}}}
    writer, sent = _bulk_writer(monkeypatch, [{"UnprocessedItems": {"paced_table": [handed_back]}}, {}])
    recording = RecordingPacer()
    with pacing.pacing(recording):
        assert writer.batch_write(ITEMS) == 3
    assert len(sent) == 2 and sent[1]["RequestItems"]["paced_table"] == [handed_back]
    assert recording.asked[0] == {(None, "NOTICE_1"): 3.0} and recording.asked[1] == {(None, "NOTICE_1"): 1.0}
    assert recording.throttles == [{(None, "NOTICE_1"): 1.0}]


def test_a_pacer_no_key_of_which_was_throttled_is_not_asked(monkeypatch):
    writer, sent = _bulk_writer(monkeypatch, [{}])
    idle = RecordingPacer(engaged=False)
    with pacing.pacing(idle):
        assert writer.batch_write(ITEMS) == 3
    assert idle.asked == [] and len(sent) == 1


def test_without_a_pacer_the_bulk_writer_sends_the_same_requests(monkeypatch):
    writer, sent = _bulk_writer(monkeypatch, [{}])
    assert pacing.current() is None
    assert writer.batch_write(ITEMS) == 3
    assert len(sent) == 1 and len(sent[0]["RequestItems"]["paced_table"]) == 3


def test_a_transaction_asks_the_pacer_first_and_reports_its_actions_cancelled_for_throttling(monkeypatch):
    register = {"PK": {"S": "POS#P1"}, "SK": {"S": "REGISTER"}, "GSI_PK": {"S": "FUND#F"}, "GSI_SK": {"S": "P1"}}
    check = {"ConditionCheck": {"TableName": "t", "Key": {"PK": {"S": "RUN"}, "SK": {"S": "RUN"}}}}
    actions = [check, {"Put": {"TableName": "t", "Item": register}}]

    def cancelled(operation, **params):
        raise TransactionCancelled(["None", "ThrottlingError"])

    monkeypatch.setattr(gateway_module, "call", cancelled)
    recording = RecordingPacer()
    with pacing.pacing(recording), pytest.raises(TransactionCancelled):
        TableGateway("paced_table").transact(actions, "token")
    assert recording.asked and recording.asked[0][(None, "RUN")] == 1.0
    (throttled,) = recording.throttles
    assert set(throttled) == {(None, "POS#P1"), ("GSI_Entity_Document", "FUND#F")}
