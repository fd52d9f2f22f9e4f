"""Posting to a `response_url`: the way back into the conversation where a command or a button was used."""

from __future__ import annotations

import logging
import socket
from enum import Enum
from typing import Any

from slack_sdk.webhook import WebhookClient

logger = logging.getLogger(__name__)

RESPONSE_URL_TIMEOUT = 10  # seconds, for a note or a help text
DELIVERY_TIMEOUT = 20  # seconds, for a result or a Share: Slack can be slow, and a second copy would be worse


class Delivery(Enum):
    """What became of a post: Slack took it, refused it (expired, used up), or its answer never came."""

    DONE = "done"
    REFUSED = "refused"
    UNKNOWN = "unknown"  # it may have been posted all the same: not to be said as a failure


def deliver(url: str | None, timeout: float = DELIVERY_TIMEOUT, **payload: Any) -> Delivery:
    """Post to a response_url, and say what became of it."""
    if not url:
        return Delivery.REFUSED
    try:
        response = WebhookClient(url, timeout=int(timeout)).send_dict(payload)
    except ValueError as error:  # not a URL the client can post to
        logger.warning("response_url post failed: %s", type(error).__name__)
        return Delivery.REFUSED
    except OSError as error:
        reason = getattr(error, "reason", error)
        if isinstance(reason, (ConnectionRefusedError, socket.gaierror)):  # never reached Slack
            logger.warning("response_url post failed: %s", type(reason).__name__)
            return Delivery.REFUSED
        logger.warning("response_url post got no answer: %s", type(reason).__name__)
        return Delivery.UNKNOWN
    if response.status_code != 200:
        logger.warning("response_url answered %s", response.status_code)
        return Delivery.UNKNOWN if response.status_code >= 500 else Delivery.REFUSED
    return Delivery.DONE


def post_to_response_url(url: str | None, **payload: Any) -> bool:
    """Post a note to a response_url; False when Slack refuses it (expired, too many uses) or cannot be reached."""
    return deliver(url, RESPONSE_URL_TIMEOUT, **payload) is Delivery.DONE
