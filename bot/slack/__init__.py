"""The Slack layer: the only code that touches ack, respond, say, the Web API client or the environment."""
