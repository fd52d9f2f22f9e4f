"""Posting to a `response_url`: the way back into the conversation where a command or a button was used."""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.webhook import WebhookClient

logger = logging.getLogger(__name__)

RESPONSE_URL_TIMEOUT = 10


def post_to_response_url(url: str | None, **payload: Any) -> bool:
    """Post to a response_url; False when Slack refuses it (expired, too many uses) or cannot be reached."""
    if not url:
        return False
    try:
        response = WebhookClient(url, timeout=RESPONSE_URL_TIMEOUT).send_dict(payload)
    except (OSError, ValueError) as error:
        logger.warning("response_url post failed: %s", type(error).__name__)
        return False
    if response.status_code != 200:
        logger.warning("response_url answered %s", response.status_code)
    return response.status_code == 200
