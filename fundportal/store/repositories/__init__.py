"""Repositories: one per aggregate, one method per access pattern, entities in and out.

They hold no business rules (those live in the apps' services); they know which keys and
which request serve each pattern, and turn typed gateway failures into domain errors.
"""

from .documents import DocumentRepository, Loaded
from .positions import PositionPage, PositionRepository

__all__ = ["DocumentRepository", "Loaded", "PositionPage", "PositionRepository"]
