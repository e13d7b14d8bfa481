"""Shared pytest fixtures for aster's Python tests."""
import pytest

_SUMMARY = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def summary(request):
    """A list of lines printed at the end of the run (even without -s)."""
    return request.config.stash.setdefault(_SUMMARY, [])


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(_SUMMARY, []):
        terminalreporter.write_line(line)
