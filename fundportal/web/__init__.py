"""What several apps' pages share at the edge (edit permission, form pieces, entry cells).

It belongs to no app and imports none: documents, positions, funds, imports and exports may
all import it (tests/unit/test_app_layers.py)."""
