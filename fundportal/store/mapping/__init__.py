"""How the domain's entities are stored: the one key codec (`keys`: every `#`-joined key string is
built and parsed there) and, per entity, its attributes and its keys on the table and every index
declared together (`entities`: `to_item`, `from_item`), with the codecs of its values (`codecs`).

Nothing outside the store imports this package: repositories and the unit of work hand entities
in and out."""

from . import history as _history  # noqa: F401 - registers the entry-version mapping
from . import register_history as _register_history  # noqa: F401 - registers the register-version mapping
