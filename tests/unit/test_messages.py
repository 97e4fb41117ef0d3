"""What users read for each error: chosen at the edge (`fundportal.messages.describe`), worded
as before the errors moved to the domain."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest

import fundportal.messages
from fundportal.domain.errors import (
    AlreadyExists,
    BadCursor,
    Conflict,
    CursorExpired,
    DomainError,
    IdempotencyMismatch,
    ImportConflict,
    InvalidId,
    ItemTooLarge,
    NotFound,
    PositionMismatch,
)
from fundportal.messages import describe
from fundportal.store.errors import (
    ConditionFailed,
    RequestRejected,
    StoreUnavailable,
    TableInUse,
    TableMissing,
    TransactionCancelled,
    UnprocessedItems,
)
from fundportal.store.uow import RegisterChanged

AT = datetime(2025, 10, 1, 9, 30, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            InvalidId("document id", "a b"),
            "Invalid document id 'a b': use 1-64 letters, digits, '_', '-' or '.' (not only dots)",
        ),
        (InvalidId("month", "2025-13"), "Invalid month '2025-13'."),
        (InvalidId("version", None), "Invalid version None."),
        (NotFound("Document", "DOC9"), "Document 'DOC9' was not found."),
        (AlreadyExists("Document", "DOC1"), "Document 'DOC1' already exists."),
        (
            Conflict("Document", "DOC1", 2, 3, "ana", AT),
            "Document 'DOC1' was changed by ana at 2025-10-01 09:30:05 UTC (now revision 3, you loaded "
            "revision 2). Reload and apply your change again.",
        ),
        (Conflict("Document", "DOC1", None, None), "Document 'DOC1' was changed. Reload and apply your change again."),
        (BadCursor(), "The page link is invalid or belongs to another query."),
        (CursorExpired(), "This page link has expired; start again from the first page."),
        (
            ItemTooLarge(410_000, 409_600),
            "The item is 410,000 bytes; DynamoDB accepts at most 409,600 bytes per item.",
        ),
        (IdempotencyMismatch(), "This form was already submitted with other values; reload and try again."),
        (
            ImportConflict(ImportConflict.ENTRY_TAKEN, "NOTICE_1", "capital_call", "NP_007"),
            "NOTICE_1 got a capital_call for NP_007 from someone else during the import; the rows written so far "
            "stay. Run the import again to see what is left.",
        ),
        (
            ImportConflict(ImportConflict.DOCUMENTS_CHANGED),
            "A document of this file was created or removed by someone else since this import started, so it "
            "cannot finish; nothing more was written. The entries it wrote there count nowhere: `manage.py "
            "verify_positions --repair` clears them (audited). Import the file again under another document id.",
        ),
        (
            ImportConflict(ImportConflict.NOT_PUBLISHED),
            "The import could not be published (a document changed meanwhile); nothing was published. Run the "
            "import again.",
        ),
        (RegisterChanged(("POSITION_1",)), "The position changed meanwhile; reload and try again."),
        (
            PositionMismatch("fund_id", "document", "DOC1", "FUND_A", "FUND_B"),
            "DOC1 is a document of fund FUND_A; an entry in it cannot be for fund FUND_B.",
        ),
        (
            PositionMismatch("fund_id", "position", "POSITION_1", "FUND_A", "FUND_B"),
            "POSITION_1 is a position in fund FUND_A, not FUND_B.",
        ),
        (
            PositionMismatch("investor_id", "position", "POSITION_1", "INVESTOR_1", "INVESTOR_2"),
            "POSITION_1 is held by investor INVESTOR_1, not INVESTOR_2.",
        ),
        (
            StoreUnavailable("cannot reach DynamoDB (EndpointConnectionError)"),
            "DynamoDB is unavailable: cannot reach DynamoDB (EndpointConnectionError)",
        ),
        (
            TableMissing("fund-data"),
            "DynamoDB is unavailable: table 'fund-data' does not exist (run manage.py create_table)",
        ),
        (UnprocessedItems(2), "2 items were still unprocessed after all retries."),
        (TableInUse(), "The table already exists or is being changed."),
        (ConditionFailed(), "The item was not as expected; nothing was written."),
        (TransactionCancelled(["None", "ConditionalCheckFailed"]), "The change was not applied; nothing was written."),
        (RequestRejected("ValidationException", "bad"), "The fund data could not be processed."),
    ],
)
def test_each_error_is_described_in_the_words_users_see(error, message):
    assert describe(error) == message


def test_domain_errors_carry_data_not_words():
    conflict = Conflict("Document", "DOC1", 2, 3, "ana", AT)
    assert (conflict.what, conflict.key, conflict.expected_revision, conflict.current_revision) == (
        "Document",
        "DOC1",
        2,
        3,
    )
    assert (conflict.updated_by, conflict.updated_at) == ("ana", AT)
    assert not hasattr(conflict, "user_message")
    assert "Reload" not in str(conflict)


def test_a_position_mismatch_is_an_invalid_id_naming_its_field():
    mismatch = PositionMismatch("investor_id", "position", "POSITION_1", "INVESTOR_1", "INVESTOR_2")
    assert isinstance(mismatch, InvalidId) and isinstance(mismatch, DomainError)
    assert mismatch.field == "investor_id"


def test_an_unknown_error_keeps_its_own_text():
    assert describe(ValueError("--documents must be at least 1")) == "--documents must be at least 1"


def test_a_moved_register_and_an_import_conflict_carry_data_not_words():
    moved = RegisterChanged(("POSITION_1",))
    taken = ImportConflict(ImportConflict.ENTRY_TAKEN, "NOTICE_1", "capital_call", "NP_007")
    assert not hasattr(moved, "user_message") and not hasattr(taken, "user_message")
    assert moved.positions == ("POSITION_1",)
    assert (taken.step, taken.document_id, taken.kind, taken.position_id) == (
        ImportConflict.ENTRY_TAKEN,
        "NOTICE_1",
        "capital_call",
        "NP_007",
    )
    assert "reload" not in str(moved).lower() and "Run the import again" not in str(taken)


def test_importing_the_package_registers_every_area_module_wording():
    """Each area module registers its wording when imported: the package imports them all, so a
    caller of `describe` never meets an error worded by its own text for want of an import."""
    package = Path(fundportal.messages.__file__).parent
    siblings = {path.stem for path in package.glob("*.py")} - {"__init__"}
    imported = set()
    for node in ast.walk(ast.parse((package / "__init__.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            imported |= {node.module} if node.module else {alias.name for alias in node.names}
    assert siblings - imported == set()
