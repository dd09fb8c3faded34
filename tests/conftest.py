"""Settings shared by every test."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Derived-data caches (held-out sets, ggp.synth.heldout.cache_dir) go to a temporary
    folder, never to the user's ~/.cache/ggp."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GGP_CACHE_DIR", str(tmp_path_factory.mktemp("ggp-cache")))
    yield
    mp.undo()
