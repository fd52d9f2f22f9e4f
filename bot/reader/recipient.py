"""Who a reply is for, as one value: the language of its words, the format of its numbers, and its audience.

A Slack user reads Slack in one language and may write numbers in another's format (English words, German
numbers); Slack may not tell dpscale a user's locale in time (the *unknown* reader: every Slack locale's format
is equally theirs); a reply the whole channel sees is written so that no format misreads it. A `Recipient` is
built once where a request enters (a command, a mention, a button, a form, the command line) and passed down;
Babel `Locale`s stay what they are for: the words (gettext, display names) and number styles.

Its `tag` travels in buttons, views' metadata and stored preferences, and is the one Babel writes for a locale
with modifiers, so tags written before this value existed read the same:

>>> reader = Recipient.parse("en_US@numbers=de_DE@channel")
>>> str(reader.words), str(reader.numbers), reader.audience.value, reader.chosen_format
('en_US', 'de_DE', 'channel', True)
>>> Recipient.parse("de-DE").for_channel().tag
'de_DE@channel'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property, lru_cache

from babel import Locale

from bot.errors import ErrorCode, UserInputError
from bot.reader.numbers import NumberStyle, cldr_style, number_style, own_styles, resolve_locale

__all__ = ["Audience", "Recipient", "RecipientLike", "as_recipient"]

NUMBERS = "numbers="  # the tag's modifier naming a number format other than the words' language's
_PERCENT_AS_THE_PROSE = frozenset({"ja", "ko", "zh"})  # languages whose prose places the percent sign its own way


class Audience(StrEnum):
    """Who reads the numbers of a reply."""

    USER = "user"  # one user, whose number format is known
    UNKNOWN = "unknown"  # one user whose locale Slack did not tell in time: every Slack locale's format is theirs
    CHANNEL = "channel"  # a whole channel: readers of every format


@dataclass(frozen=True)
class Recipient:
    """The reader of a reply: `words` (the language its sentences are in), `numbers` (the locale whose format
    its numbers are read and written in), `audience`, `own`, the user's own recipient where a `lang=` word
    chose another language (numbers are then read in both formats), and whether the user chose `numbers`."""

    words: Locale
    numbers: Locale
    audience: Audience = Audience.USER
    own: Recipient | None = None
    format_chosen: bool = False

    @classmethod
    def of(cls, locale: Locale, audience: Audience = Audience.USER) -> Recipient:
        """A reader of `locale`'s language, in its own number format."""
        return cls(locale, locale, audience)

    @classmethod
    def parse(cls, tag: str) -> Recipient:
        """The recipient a `tag` (or a Slack locale tag such as `de-DE`, `es-LA`) stands for; raises
        UserInputError(UNKNOWN_LOCALE) for a tag that names no locale or no audience. One value per tag: every
        request of a reader shares its number style and the readers made for it."""
        return _parsed(tag)

    @classmethod
    def _parse(cls, tag: str) -> Recipient:
        words, _, modifier = tag.partition("@")
        numbers = words
        if modifier.startswith(NUMBERS):
            numbers, _, modifier = modifier.removeprefix(NUMBERS).partition("@")
        if modifier not in ("", Audience.UNKNOWN, Audience.CHANNEL):
            raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag)
        words_locale, numbers_locale = resolve_locale(words), resolve_locale(numbers)
        chosen = str(words_locale) != str(numbers_locale)
        return cls(words_locale, numbers_locale, Audience(modifier or Audience.USER), format_chosen=chosen)

    def __hash__(self) -> int:  # the caches keyed by a recipient ask often; Babel's `Locale` hashes in Python
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.words, self.numbers, self.audience, self.own, self.format_chosen))

    @cached_property
    def tag(self) -> str:
        """What `parse` reads back: `de_DE`, `en_US@numbers=de_DE`, `en_US@unknown`, `de_DE@channel`
        (`own` travels on its own, as it always has)."""
        tag = str(self.words)
        if self.chosen_format:
            tag += "@" + NUMBERS + str(self.numbers)
        return tag if self.audience is Audience.USER else f"{tag}@{self.audience.value}"

    def __str__(self) -> str:
        return self.tag

    @property
    def chosen_format(self) -> bool:
        """Whether the numbers are in a format the user chose, not their language's own."""
        return self.format_chosen

    @property
    def is_unknown(self) -> bool:
        return self.audience is Audience.UNKNOWN

    @property
    def shared(self) -> bool:
        """Whether readers of more than one format read the reply: a channel, or the unknown reader."""
        return self.audience is not Audience.USER

    def for_channel(self) -> Recipient:
        """This recipient as a whole channel reads it (an unknown reader's reply is written the same safe way)."""
        return self if self.audience is not Audience.USER else replace(self, audience=Audience.CHANNEL)

    def choosing(self, numbers: Locale) -> Recipient:
        """This recipient with the number format `numbers` the user chose: read in it as one user (the choice says
        what Slack could not), and their language's own format is no choice."""
        chosen = self.is_unknown or str(self.words) != str(numbers)
        return Recipient(self.words, numbers, Audience.USER, format_chosen=chosen)

    def answering_in(self, chosen: Locale) -> Recipient:
        """The recipient a `lang=` word choosing `chosen` makes: its words and format, for the same audience, and
        this one kept as `own` (unless it is the same reader)."""
        other = Recipient(chosen, chosen, self.audience)
        return self if other == self else replace(other, own=self)

    @property
    def user(self) -> Recipient:
        """The user's own recipient: `own`, or this one."""
        return self.own or self

    @property
    def second_format(self) -> Recipient | None:
        """The user's own recipient where `lang=` chose a format that reads numbers otherwise: the examples a
        reply shows are then written so that both read them alike (`2000`, not `2.000`). None otherwise."""
        if self.own is None:
            return None
        return self.own if len({s.key for s in (*self.own_styles, *self.own.own_styles)}) >= 2 else None

    @cached_property
    def format_style(self) -> NumberStyle:
        """How the recipient's number format writes numbers (`bot.reader.numbers.number_style`), its percent sign
        too: where a reader writes it first (Turkish `%90`), a `%` standing alone goes with the number after it."""
        return number_style(self.numbers, self.shared)

    @cached_property
    def style(self) -> NumberStyle:
        """How dpscale writes numbers for this recipient: `format_style`, with the percent sign spaced as the
        reply's prose is where that is Chinese, Japanese or Korean: `実効スループットは理想の90%です`, never the
        `90 %` of a German format chosen, whose digits (`2.000`, `0,9`) the reply keeps."""
        style = self.format_style
        if self.words.language in _PERCENT_AS_THE_PROSE and self.words.language != self.numbers.language:
            prose = cldr_style(self.words)
            style = replace(style, percent_prefix=prose.percent_prefix, percent_suffix=prose.percent_suffix)
        return style

    @cached_property
    def own_styles(self) -> tuple[NumberStyle, ...]:
        """The formats that are all equally this reader's own (`bot.reader.numbers.own_styles`)."""
        return own_styles(self.numbers, self.is_unknown)


@lru_cache(maxsize=512)
def _parsed(tag: str) -> Recipient:
    return Recipient._parse(tag)


RecipientLike = Recipient | Locale  # what the core's entry points take: a plain locale is its one user's


def as_recipient(reader: RecipientLike) -> Recipient:
    """`reader`, or the one user of a plain Babel locale (`Recipient.of`): a locale carries no audience.

    >>> as_recipient(Locale.parse("de_DE")).tag
    'de_DE'
    """
    return reader if isinstance(reader, Recipient) else Recipient.of(reader)
