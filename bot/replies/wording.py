"""Numbers and sentences bound to one recipient: the number style and the catalog, looked up once."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from decimal import Decimal
from functools import cached_property, lru_cache
from string import Formatter

from babel import Locale
from babel.lists import format_list

from bot.i18n import catalog_name, translations_for
from bot.model.calculator import Quantity
from bot.names import display_name, join_list, kept_apart
from bot.reader.keywords import shown_keys
from bot.reader.labels import plural_unit
from bot.reader.numbers import APOSTROPHES, SPACES, write_number, write_percent
from bot.reader.recipient import RecipientLike, as_recipient
from bot.replies.particles import template
from bot.replies.plurals import plural_count

MAX_PLAIN_DIGITS = 20
FULL_WIDTH_STOPS = ("。", "！", "？")  # Japanese and Chinese put no space after these; Korean uses `.` and a space
CLOSE_SET = frozenset({"ja", "zh"})  # languages that put no space between two Han characters
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")  # Han, kana, Hangul
EXAMPLE = (Decimal(64), Decimal(2000), Decimal("0.9"))  # the source document's example: devices, samples/s, E


@lru_cache(maxsize=256)
def wording_for(recipient: RecipientLike) -> Wording:
    """The recipient's `Wording`, made once: every reply, button and error asks for one."""
    return Wording(recipient)


class Wording:
    """Writes numbers in `recipient`'s format and translates sentences into its words' language (immutable:
    shared by every reply to the recipient, through `wording_for`)."""

    def __init__(self, recipient: RecipientLike) -> None:
        self.recipient = recipient = as_recipient(recipient)
        self.style = recipient.style
        locale = recipient.words
        catalog = translations_for(locale)
        self.gettext: Callable[[str], str] = catalog.gettext
        self.ngettext: Callable[[str, str, int], str] = catalog.ngettext
        self.pgettext: Callable[[str, str], str] = lambda context, message: str(catalog.pgettext(context, message))
        if catalog_name(locale).split("_")[0] == "ko":  # Korean chooses particles by the value they follow
            self.gettext, self.ngettext = self._with_particles(catalog.gettext, catalog.ngettext)
        self.keys = shown_keys(catalog_name(locale))
        self._catalog = catalog_name(locale)
        self._close_set = catalog_name(locale).split("_")[0] in CLOSE_SET

    def _with_particles(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]
                        ) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
        """`gettext` and `ngettext` whose strings fill `{quantity}{은/는}` with the particle that fits the value
        (bot/replies/particles.py), reading numbers with this locale's decimal mark."""
        decimal = self.style.decimal
        return (lambda message: template(gettext(message), decimal),
                lambda singular, plural, n: template(ngettext(singular, plural, n), decimal))

    def language_note(self) -> list[str]:
        """One line saying the reply is in English because the reader's language has no catalog; else nothing,
        and nothing under a reply written for a whole channel or an unknown reader (its numbers are in neither
        the language's format nor the reader's)."""
        return list(self._language_note)

    @cached_property
    def _language_note(self) -> tuple[str, ...]:
        return tuple(self._written_language_note())

    def _written_language_note(self) -> list[str]:
        words = self.recipient.words
        if catalog_name(words).split("_")[0] == words.language or self.recipient.shared:
            return []
        name = words.get_language_name(self.language) or words.language  # in the reply's language
        return [self.gettext(
            ":information_source: dpscale doesn't speak {language} yet, so it answers in English; numbers are "
            "still read and written in the {format} format."
        ).format(language=name, format=self.locale_name)]

    def unknown_reader_note(self) -> str:
        """Why a private result for a reader whose locale Slack did not tell in time is in this language, and that
        its numbers read alike in every format."""
        language = self.language
        return self.gettext(
            ":information_source: Slack hasn't told me your language yet, so this answer is in {language}, "
            "with numbers written so that they read the same in every language."
        ).format(language=language.get_language_name(language) or str(language))

    def key(self, quantity: Quantity | None) -> str:
        """The language's own word for a named value, with its `=`: `durchsatz=`, `効率=`; None is `lang=`."""
        return self.keys[quantity] + "="

    def key_list(self, *, lang: bool = False) -> str:
        """The four value words (and `lang=`) in the language's own words."""
        return " ".join(self.key(q) for q in (*Quantity, *((None,) if lang else ())))

    def number(self, value: Decimal, digits: int = 2) -> str:
        """`value` with up to `digits` decimals, or as many more as a value below one needs to show two
        significant digits (a throughput of 0.004 samples/s, or of 0.000000004, is never shown as 0)."""
        if value and value.adjusted() < 0:  # below one in size (`adjusted`: the exponent of its first digit)
            digits = max(digits, 1 - value.adjusted())
        return write_number(value, self.style, digits)

    def percent(self, fraction: Decimal, digits: int = 2) -> str:
        """A fraction as a percentage; below 1 % with two significant digits, so it is never shown as 0 %."""
        return write_percent(fraction, self.style, self.percent_digits(fraction, digits))

    @staticmethod
    def percent_digits(fraction: Decimal, digits: int = 2) -> int:
        """The decimals `percent` writes `fraction` with: `digits`, or more below 1 % in size (two significant)."""
        return max(digits, 1 - (fraction * 100).adjusted()) if fraction and fraction.adjusted() < -2 else digits

    @cached_property
    def hundred(self) -> str:
        """100 % as the locale writes it (`100 %`, `100%`, `%100`)."""
        return write_percent(Decimal(1), self.style)

    def rate(self, value: str) -> str:
        """An already written number with its unit, in the plural CLDR gives the number as shown: `115,200
        samples/s`, `1 sample/s`; French `0 échantillon/s`, `1,5 échantillon/s` (French `one` is below 2)."""
        return (self._rate or self._rate_forms)[self.plural_count(value) - 1].format(value=value)

    @cached_property
    def _rate_forms(self) -> tuple[str, str]:
        """The unit's two forms, for a count of 1 and of 2 (`plural_count` gives one of those)."""
        return (self.ngettext("{value} sample/s", "{value} samples/s", 1),
                self.ngettext("{value} sample/s", "{value} samples/s", 2))

    def plural_count(self, written: str) -> int:
        """A count that picks, for `ngettext`, the catalog's plural form CLDR gives `written` (a number as this
        wording wrote it, its decimals part of its plural: English `1 sample/s`, `1.5 samples/s`, French
        `1,5 échantillon/s`)."""
        return plural_count(written.translate(self._plain_digits), self._catalog)

    @cached_property
    def _plain_digits(self) -> dict[int, str | None]:
        """From a number as this wording writes it to its digits alone, the decimal mark made `.`."""
        return {**dict.fromkeys(map(ord, SPACES + APOSTROPHES + self.style.group)), ord(self.style.decimal): "."}


    def fill(self, template: str, **values: str) -> str:
        """`template` with its `{name}` fields filled from `values`. In a language that sets no space between Han
        characters, a space the template puts between a value ending in Han (`1,800 样本/秒`) and Han text after
        it, or between Han text and a value starting in Han, is left out; a value in Latin letters or digits at
        that edge (a user's own unit, `1,800 img/s`) keeps its space."""
        if not self._close_set:
            return template.format(**values)
        text = ""
        for literal, name, spec, _conversion in Formatter().parse(template):
            if literal.startswith(" ") and HAN.match(literal[1:2]) and HAN.match(text[-1:]):
                literal = literal[1:]
            text += literal
            if name is None:
                continue
            value = format(values[name], spec or "")
            if text.endswith(" ") and HAN.match(text[-2:-1]) and HAN.match(value[:1]):
                text = text[:-1]
            text += value
        return text

    def times(self, value: str) -> str:
        """An already written number as a multiple: `57.6×`."""
        return self._times.format(value=value)

    def times_from(self, value: str) -> str:
        """An already written number as the lower bound of a range of multiples: `102×` in `102× to 104×`, but
        `102` in Japanese `102〜104倍`, Korean `102~104배` and Chinese `102 至 104 倍`, whose counter goes on the
        upper bound alone."""
        return self._times_from.format(value=value)

    @cached_property
    def _times_from(self) -> str:
        return self.pgettext("the lower bound of a range of multiples, such as 102 in 102× to 104×", "{value}×")

    _rate: tuple[str, str] | None = None  # the user's own unit word (`with_unit`), for a count of 1 and of 2

    def with_unit(self, unit: str | None) -> Wording:
        """This wording with rates written in the user's own unit word (`115,200 tokens/s`), or itself: as typed,
        but for a known singular noun, which takes its plural where the count needs it (`1 sample/s`, `7.2
        samples/s`; `bot.reader.labels.plural_unit`) where the catalog's unit inflects too, and on its number where
        the language writes its own so."""
        if not unit:
            return self
        other = copy.copy(self)
        plural = plural_unit(unit) if len(set(self._rate_forms)) > 1 else unit  # as the catalog's own unit inflects
        other._rate = (self._unit_template(unit), self._unit_template(plural))
        return other

    def _unit_template(self, unit: str) -> str:
        """A rate in the user's unit word, `{value}` its number's place: a unit in CJK script spaced as the
        catalog's own unit is (`115,200サンプル/秒`, `115,200 样本/秒`), any other after a space (`2,000 img/s`)."""
        own = self._rate_forms[1].partition("{value}")[2]
        space = "" if CJK.match(unit) and not own.startswith(" ") else " "
        return "{value}" + space + unit.replace("{", "{{").replace("}", "}}")

    @cached_property
    def _times(self) -> str:
        return self.gettext("{value}×")

    def plain(self, value: Decimal, digits: int = 6) -> str:
        """A value without grouping, so that `2000` and `2` can never be mistaken for each other, with at least
        every decimal it has (up to `MAX_PLAIN_DIGITS`): a reading of `0.0000001` is never shown as 0."""
        exponent = value.normalize().as_tuple().exponent
        if isinstance(exponent, int) and -exponent > digits:
            digits = min(-exponent, MAX_PLAIN_DIGITS)
        return write_number(value, self.style, digits, grouping=False)

    @cached_property
    def locale_name(self) -> str:
        """The name of the format numbers are read and written in, in the reply's language (its catalog's: English
        for a language without one): a chosen format's
        (`Deutsch (Schweiz)` for German numbers chosen beside Slack's German), else the language locale's."""
        return self.format_name(self.recipient)

    def format_name(self, other: RecipientLike) -> str:
        """The name of the format `other` reads and writes numbers in, in the reply's language."""
        return display_name(as_recipient(other).numbers, self.language)

    @cached_property
    def language(self) -> Locale:
        """The language the reply's sentences are in: its catalog's (English for a language without one)."""
        return Locale.parse(catalog_name(self.recipient.words))

    @cached_property
    def comma(self) -> str:
        """What the reply's language puts between the items of a list (CLDR's list pattern): `, `, or `、` in
        Japanese and Chinese."""
        return str(self.language.list_patterns["standard"]["middle"].format("", ""))

    def examples(self, items: list[str]) -> str:
        """Examples that hold numbers, one after another, apart by the language's semicolon (never a comma, which a
        number may hold): `8 = 15,800; 16 = 31,000`, `8 = 15 800 ; 16 = 31 000`, `8 = 15,800；16 = 31,000`."""
        return self._example_separator.join(items)

    @cached_property
    def _example_separator(self) -> str:
        return self.pgettext("between examples that hold numbers, such as 8 = 15,800; 16 = 31,000", "; ")

    def join(self, items: list[str]) -> str:
        """`items` as the reply's language lists them: `8 and 16`, `8 台和 16 台`, `8개와 16개` (`bot.names`)."""
        return join_list(items, self.language)

    def alternatives(self, items: list[str]) -> str:
        """`items` as choices, joined by the reply's language's "or" (CLDR's list pattern): `a, b or c`,
        `a, b ou c`, `a、b或c`; a code span is kept off a letter and off full-width punctuation
        (`` `a` 、 `b` 或 `c` ``), where Slack may not draw it."""
        return kept_apart(self._choices(len(items)), items)

    def spans(self, items: list[str]) -> str:
        """Code spans listed with the language's comma: `` `64`, `2000` ``, `` `64` 、 `2000` `` (`alternatives`)."""
        return kept_apart(self.comma.join(f"\x00{index}\x01" for index in range(len(items))), items)

    @lru_cache(maxsize=8)  # noqa: B019 - one Wording per reader (`wording_for`), a few list lengths each
    def _choices(self, count: int) -> str:
        """The language's "or" list of `count` items, each a marked index (`\x000\x01`) for `alternatives`."""
        return str(format_list([f"\x00{i}\x01" for i in range(count)], style="or", locale=self.language))

    def counted(self, devices: str) -> str:
        """An already written number of devices with the counter its language puts on a count: `64台`, `64개`,
        `64 台`; in a language that has none, the number alone (`64`, where a label or a sentence names devices)."""
        return self._counted.format(devices=devices)

    @cached_property
    def _counted(self) -> str:
        return self.pgettext("a number of devices, where a label or sentence already names them", "{devices}")

    @staticmethod
    def sentences(*parts: str) -> str:
        """Sentences run together as the language writes them: a space after `.`, none after a full-width `。`."""
        text = ""
        for part in parts:
            text += part if not text or text.endswith(FULL_WIDTH_STOPS) else " " + part
        return text

    def field_line(self, label: str, value: str) -> str:
        """A label and its value on one line of plain text (`Débit réel : 115 200`, `デバイス数：64`)."""
        return self.gettext("{label}: {value}").format(label=label, value=value)

    @property
    def chosen_format(self) -> bool:
        """Whether the numbers are in a format the user chose, not their Slack language's own."""
        return self.recipient.chosen_format
