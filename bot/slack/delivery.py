"""Posting to a `response_url`: the way back into the conversation where a command or a button was used."""

from __future__ import annotations

import logging
import socket
from enum import Enum
from typing import Any

from slack_sdk.http_retry import HttpRequest, HttpResponse, RetryHandler, RetryState
from slack_sdk.webhook import WebhookClient

logger = logging.getLogger(__name__)

RESPONSE_URL_TIMEOUT = 10  # seconds, for a note or a help text
DELIVERY_TIMEOUT = 20  # seconds, for a result or a Share: Slack can be slow, and a second copy would be worse


class Delivery(Enum):
    """What became of a post: Slack took it, refused it (expired, used up), or its answer never came."""

    DONE = "done"
    REFUSED = "refused"
    UNKNOWN = "unknown"  # it may have been posted all the same: not to be said as a failure


class BadAnswerRetry(RetryHandler):
    """One retry of a call Slack answered with a server error (5xx), or with a page that is not its JSON at all (a
    proxy's HTML): Slack did not do what was asked. A body cut short is not retried here: Slack may have done it,
    and the caller looks before asking again (bot/slack/threads.py)."""

    def __init__(self, json_expected: bool = True) -> None:
        super().__init__(max_retry_count=1)
        self.json_expected = json_expected  # the Web API answers JSON; a response_url answers `ok`

    def _can_retry(self, *, state: RetryState, request: HttpRequest, response: HttpResponse | None = None,
                   error: Exception | None = None) -> bool:
        if response is None:
            return False
        if response.status_code >= 500:
            return True
        return (self.json_expected and response.status_code == 200
                and not (response.data or b"").lstrip().startswith(b"{"))


def deliver(url: str | None, timeout: float = DELIVERY_TIMEOUT, **payload: Any) -> Delivery:
    """Post to a response_url, and say what became of it."""
    if not url:
        return Delivery.REFUSED
    try:
        response = WebhookClient(url, timeout=int(timeout), retry_handlers=[BadAnswerRetry(json_expected=False)])\
            .send_dict(payload)
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
    if response.status_code != 200:  # Slack's answer says it was not posted (a 5xx tried twice)
        logger.warning("response_url answered %s", response.status_code)
        return Delivery.REFUSED
    return Delivery.DONE


def post_to_response_url(url: str | None, **payload: Any) -> bool:
    """Post a note to a response_url; False when Slack refuses it (expired, too many uses) or cannot be reached."""
    return deliver(url, RESPONSE_URL_TIMEOUT, **payload) is Delivery.DONE
