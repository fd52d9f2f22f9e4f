"""What a result's buttons and the form carry between requests, validated where it comes back in.

A button's value and a view's `private_metadata` come back from a client, so they are outside data: pydantic
models read them, and refuse anything this app did not write. Each model also knows Slack's size limit for the
place it travels in and raises before Slack would reject the payload.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import orjson
from babel import Locale
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.calculator import Quantity
from bot.errors import UserInputError
from bot.formats import parse_reader_locale
from bot.parsing import MAX_INPUT_LENGTH, reader_of
from bot.reading import Reader

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
            tag is None or parse_reader_locale(tag)
        except UserInputError:
            raise ValueError("unknown locale") from None
        return tag

    @property
    def locale(self) -> Locale:
        return parse_reader_locale(self.locale_tag)

    @property
    def own(self) -> Locale:
        """The user's own locale: `locale`, unless a `lang=` word chose that one."""
        return parse_reader_locale(self.own_tag) if self.own_tag else self.locale

    @property
    def reader(self) -> Reader:
        """Whose numbers the fields hold: `locale`'s format, and the user's own beside it."""
        return reader_of(self.locale, self.own)

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
    def of_text(cls, locale: Locale, text: str) -> ResultState:
        return cls(locale_tag=str(locale), text=text)

    @classmethod
    def text_value(cls, locale: Locale, text: str) -> str:
        """`of_text(locale, text).encode()`, the value every command's result buttons carry, written directly:
        the same JSON, without building and validating a model for what this app has just read itself (a tag
        from a locale, a text the engine took). ValueError as `encode` raises it."""
        tag = str(locale)
        if len(text) > MAX_INPUT_LENGTH or len(tag) > LOCALE_TAG_LIMIT:
            return cls.of_text(locale, text).encode()  # refused as the model refuses it
        try:
            value = orjson.dumps({"l": tag, "t": text}).decode()
        except orjson.JSONEncodeError:  # a lone surrogate: written as the model writes it
            return cls.of_text(locale, text).encode()
        if len(value) > cls.limit:
            raise ValueError(f"{cls.__name__} is {len(value)} characters; Slack takes {cls.limit}")
        return value

    @classmethod
    def of_fields(cls, locale: Locale, fields: dict[Quantity, str | None], own: Locale | None = None) -> ResultState:
        return cls(locale_tag=str(locale), own_tag=_other(own, locale), fields={q: v for q, v in fields.items() if v})

    @classmethod
    def of_series(cls, locale: Locale, throughput: str | None, rows: str | None,
                  own: Locale | None = None) -> ResultState:
        return cls(locale_tag=str(locale), own_tag=_other(own, locale),
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
    def of(cls, locale: Locale, response_url: str | None, own: Locale | None = None,
           direct: bool = False) -> FormMetadata:
        return cls(locale_tag=str(locale), own_tag=_other(own, locale), response_url=response_url or None,
                   direct=direct or None)


def _other(own: Locale | None, locale: Locale) -> str | None:
    """`own`'s tag where it is not `locale`: what a state carries beside its locale."""
    return str(own) if own is not None and str(own) != str(locale) else None


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
