"""dpscale: what a data-parallel training cluster really delivers, answered in Slack."""
