"""gunicorn, as the web process runs it: configured from Settings alone, with Ctrl-C stopping gracefully.

Imported only once the settings are read: gunicorn reads WEB_CONCURRENCY itself as it is imported, and a value it
cannot read (`two`) would stop the process there with a traceback, before dpscale could name the setting.
"""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter

from bot.web.asgi import Front


class Gunicorn(BaseApplication):  # type: ignore[misc]
    """gunicorn, configured from Settings alone (no config file, no command-line arguments), serving `front`."""

    def __init__(self, front: Front, options: dict[str, Any]) -> None:
        self._front = front
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> Front:
        return self._front

    def run(self) -> None:
        Manager(self).run()


class Manager(Arbiter):  # type: ignore[misc]
    """gunicorn's arbiter, with SIGINT (Ctrl-C) stopping gracefully as SIGTERM does; SIGQUIT stops at once."""

    def handle_int(self) -> None:
        self.handle_term()
