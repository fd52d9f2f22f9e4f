"""What a result's buttons and the form carry between requests, validated where it comes back in.

A button's value and a view's `private_metadata` come back from a client, so they are outside data: pydantic
models read them, and refuse anything this app did not write. Each model also knows Slack's size limit for the
place it travels in and raises before Slack would reject the payload.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Self

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.parsing import MAX_INPUT_LENGTH
from bot.reader.recipient import Recipient, RecipientLike, as_recipient

BUTTON_VALUE_LIMIT = 2000  # Slack: a button's value
METADATA_LIMIT = 3000  # Slack: a view's private_metadata
FIELD_LIMIT = 40  # the form's inputs allow 40 characters
SERIES_ROWS_LIMIT = 600  # the series form's measurements: twelve rows of up to 40 characters, and their line breaks
LOCALE_TAG_LIMIT = 35


class BadStateError(ValueError):
    """A button's value or a view's metadata that this app did not write (or no longer understands)."""


class _Carried(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    limit: ClassVar[int]  # Slack's size limit where this travels
    locale_tag: str = Field(alias="l", max_length=LOCALE_TAG_LIMIT)
    # the user's own locale, where a `lang=` word chose `locale_tag`: numbers are read in both, as the command was
    own_tag: str | None = Field(default=None, alias="o", max_length=LOCALE_TAG_LIMIT)

    @field_validator("locale_tag", "own_tag")
    @classmethod
    def _known(cls, tag: str | None) -> str | None:
        try:
            tag is None or Recipient.parse(tag)
        except UserInputError:
            raise ValueError("unknown locale") from None
        return tag

    @property
    def recipient(self) -> Recipient:
        """Who the state was written for, with the user's own recipient beside it where a `lang=` word chose
        another (the fields' numbers are read in both formats)."""
        recipient = Recipient.parse(self.locale_tag)
        return replace(recipient, own=Recipient.parse(self.own_tag)) if self.own_tag else recipient

    def encode(self) -> str:
        """As JSON for the place it travels in; ValueError if Slack would not take that much there."""
        value = self.model_dump_json(by_alias=True, exclude_none=True)
        if len(value) > self.limit:
            raise ValueError(f"{type(self).__name__} is {len(value)} characters; Slack takes {self.limit}")
        return value

    @classmethod
    def decode(cls, value: Any) -> Self:
        """What `encode` wrote; BadStateError for anything else (a client's JSON may hold anything where it belongs)."""
        if not isinstance(value, str | None):
            raise BadStateError(type(value).__name__)
        try:
            return cls.model_validate_json(value or "")
        except ValidationError:
            raise BadStateError((value or "")[:80]) from None


class SeriesFields(BaseModel):
    """A series form's two fields as typed: one device's throughput and the measurements, one per line."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    throughput: str = Field(alias="v", max_length=FIELD_LIMIT)
    rows: str = Field(alias="r", max_length=SERIES_ROWS_LIMIT)


class ResultState(_Carried):
    """What rebuilds a result when its button is clicked: the text or the form fields, and the locale they were
    read in. A click recomputes the reply instead of trusting blocks sent back by a client."""

    limit: ClassVar[int] = BUTTON_VALUE_LIMIT

    text: str | None = Field(default=None, alias="t", max_length=MAX_INPUT_LENGTH)
    fields: dict[Quantity, str] | None = Field(default=None, alias="f")
    series: SeriesFields | None = Field(default=None, alias="s")  # a series form's fields (`bot.slack.series`)

    @field_validator("fields")
    @classmethod
    def _short_fields(cls, fields: dict[Quantity, str] | None) -> dict[Quantity, str] | None:
        if fields is not None and any(len(value) > FIELD_LIMIT for value in fields.values()):
            raise ValueError("field too long")
        return fields

    @model_validator(mode="after")
    def _text_or_fields(self) -> ResultState:
        if [self.text, self.fields, self.series].count(None) != 2:
            raise ValueError("carries one of text, fields or a series")
        return self

    @classmethod
    def of_text(cls, recipient: RecipientLike, text: str) -> ResultState:
        return cls(locale_tag=as_recipient(recipient).tag, text=text)

    @classmethod
    def text_value(cls, recipient: RecipientLike, text: str) -> str:
        """`of_text(recipient, text).encode()`, the value every command's result buttons carry, written directly:
        the same JSON, without building and validating a model for what this app has just read itself (a tag
        from a locale, a text the engine took). ValueError as `encode` raises it."""
        tag = as_recipient(recipient).tag
        if len(text) > MAX_INPUT_LENGTH or len(tag) > LOCALE_TAG_LIMIT:
            return cls.of_text(recipient, text).encode()  # refused as the model refuses it
        try:
            value = orjson.dumps({"l": tag, "t": text}).decode()
        except orjson.JSONEncodeError:  # a lone surrogate: written as the model writes it
            return cls.of_text(recipient, text).encode()
        if len(value) > cls.limit:
            raise ValueError(f"{cls.__name__} is {len(value)} characters; Slack takes {cls.limit}")
        return value

    @classmethod
    def of_fields(cls, recipient: RecipientLike, fields: dict[Quantity, str | None]) -> ResultState:
        recipient = as_recipient(recipient)
        return cls(locale_tag=recipient.tag, own_tag=_own_tag(recipient),
                   fields={q: v for q, v in fields.items() if v})

    @classmethod
    def of_series(cls, recipient: RecipientLike, throughput: str | None, rows: str | None) -> ResultState:
        recipient = as_recipient(recipient)
        return cls(locale_tag=recipient.tag, own_tag=_own_tag(recipient),
                   series=SeriesFields(throughput=throughput or "", rows=rows or ""))

    def form_fields(self) -> dict[Quantity, str | None] | None:
        if self.fields is None:
            return None
        return {quantity: self.fields.get(quantity) for quantity in Quantity}



class FormMetadata(_Carried):
    """What the form carries to its submission: the locale it was shown in and where to deliver the result."""

    limit: ClassVar[int] = METADATA_LIMIT

    response_url: str | None = Field(default=None, alias="r", max_length=1000, pattern=r"^https?://")
    # opened by Edit on a result that came by direct message: its result replaces that message as such a copy
    direct: bool | None = Field(default=None, alias="d")

    @classmethod
    def of(cls, recipient: RecipientLike, response_url: str | None, direct: bool = False) -> FormMetadata:
        recipient = as_recipient(recipient)
        return cls(locale_tag=recipient.tag, own_tag=_own_tag(recipient), response_url=response_url or None,
                   direct=direct or None)


def _own_tag(recipient: Recipient) -> str | None:
    """The tag of the user's own recipient where a `lang=` word chose another: what a state carries beside it."""
    own = recipient.own
    return own.tag if own is not None and own.tag != recipient.tag else None


class _Input(BaseModel):
    value: str | None = None


class _FormState(BaseModel):
    values: dict[str, dict[str, _Input]] = {}


def submitted_values(view: dict[str, Any]) -> dict[str, dict[str, str | None]]:
    """A submitted form's inputs (block id → action id → text), read as outside data: BadStateError where they are not
    shaped as Slack sends a form's state."""
    try:
        state = _FormState.model_validate(view.get("state") or {})
    except ValidationError:
        raise BadStateError("form state") from None
    return {block: {action: given.value for action, given in inputs.items()} for block, inputs in state.values.items()}
