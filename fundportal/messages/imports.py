"""The wording of an import that cannot run or finish: already imported, stopped, changed meanwhile."""

from __future__ import annotations

from fundportal.domain.errors import AlreadyImported, ImportConflict, ImportUnfinished

from .dispatch import describe


@describe.register
def _(error: AlreadyImported) -> str:
    return (
        f"{error.filename} was already imported by {error.by} at {error.at} into "
        f"{', '.join(error.documents)}; this run wrote nothing of its own."
    )


@describe.register
def _(error: ImportUnfinished) -> str:
    return (
        f"The import {error.marker} stopped before it finished: the table refused or did not answer a request. "
        "Nothing of it is published. Confirm the same file again to finish it; if it keeps stopping, an operator "
        f"clears what it wrote with `manage.py verify_positions --repair --abandon {error.marker}`."
    )


@describe.register
def _(error: ImportConflict) -> str:
    if error.step == ImportConflict.ENTRY_TAKEN:
        return (
            f"{error.document_id} got a {error.kind} for {error.position_id} from someone else during the "
            "import; the rows written so far stay. Run the import again to see what is left."
        )
    if error.step == ImportConflict.DOCUMENTS_CHANGED:
        return (
            "A document of this file was created or removed by someone else since this import "
            "started, so it cannot finish; nothing more was written. The entries it wrote there count "
            "nowhere: `manage.py verify_positions --repair` clears them (audited). Import the file again "
            "under another document id."
        )
    return (
        "The import could not be published (a document changed meanwhile); nothing was published. Run the import again."
    )
