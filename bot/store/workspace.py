"""Whose data a row is: an installation, which is one workspace or, on Enterprise Grid, a whole organisation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workspace:
    """An installation's identity as Slack sends it with every request.

    An org-wide installation (`is_enterprise_install`) covers every workspace of the organisation, and a user's
    id is the same in each of them: rows are then keyed by the organisation alone (team ""), so a preference
    chosen in one workspace holds in all, and uninstalling from the organisation forgets them all.
    """

    enterprise_id: str | None = None
    team_id: str | None = None
    is_enterprise_install: bool = False

    @property
    def enterprise_key(self) -> str:
        return self.enterprise_id or ""

    @property
    def team_key(self) -> str:
        return "" if self.is_enterprise_install else (self.team_id or "")
