import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from slack_client import running_app  # noqa: E402  (importable once tests/ is on the path)


@pytest.fixture(scope="module")
def world(request):
    """One fake Slack Web API and one real server for a test module; its USER_LOCALES name the known users."""
    with running_app(getattr(request.module, "USER_LOCALES", {})) as pair:
        yield pair


@pytest.fixture(scope="module")
def fake(world):
    return world[0]


@pytest.fixture(scope="module")
def server(world):
    return world[1]
