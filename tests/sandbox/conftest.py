"""The attack suite runs only where the OS-level box can: elsewhere it skips, saying why."""

import pytest

from ggp.sandbox.process import box_problem


def pytest_collection_modifyitems(config, items):
    problem = box_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"the sandbox box cannot run here: {problem}")
    for item in items:
        if "tests/sandbox/" in str(item.fspath) and not item.get_closest_marker("no_box"):
            item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "no_box: runs without the bubblewrap box")
