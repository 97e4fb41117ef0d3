"""Views and commands: one backend (moto, fast); the data layer's behaviour on both backends
is pinned by tests/contract."""

import pytest

from tests.notices import upload_storage_in


@pytest.fixture
def backend(moto_backend):
    return moto_backend


@pytest.fixture
def uploads(settings, tmp_path):
    """Uploaded notices in a directory of the test's own (`STORAGES["imports"]`); its path."""
    location = tmp_path / "imports"
    settings.STORAGES = {**settings.STORAGES, "imports": upload_storage_in(location)}
    return location
