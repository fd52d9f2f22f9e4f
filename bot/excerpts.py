"""The values a colleague's message states, read in its author's format, to fill the form with.

A message written as a command (`64 2.000 90 %`, `d=64 v=2k e=90%`) is read exactly as that command: the form
holds the values it names. Any other message ("64 GPUs, 115k samples/s, 2k on one") is read number by number,
words between them (and labels such as `run 7:` or `#12`) passed over, and each number is placed by what it is:

1. a percentage is the scaling efficiency;
2. a whole number followed by a word for devices (`64 GPUs`, `8 Geräte`, `16 nodes`) is the device count;
3. a number above 0 and at most 1 is the efficiency, as a fraction;
4. the first other whole number is the device count;
5. of the numbers left, the smaller is the per-device throughput and the larger the cluster's actual throughput
   (a cluster delivers more than one of its devices); one alone is the per-device throughput.

Three values are enough for the form: when all four are found, actual throughput is left for dpscale to solve.
A number the author's format does not settle (`2.000` from an English writer, any such number when Slack does not
say the author's locale) is not placed but asked about, with the engine's own question.

Pure: the text and the author's locale in, an `Excerpt` out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from babel import Locale

from bot.calculator import Quantity
from bot.errors import ErrorCode, UserInputError
from bot.keywords import keywords
from bot.parsing import FieldErrors, parse_command, parse_fields

__all__ = ["Excerpt", "read_message"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
MAX_SCANNED = 2000  # characters of a message looked at: a long message's numbers are in its first lines
ASKED = frozenset({ErrorCode.AMBIGUOUS_NUMBER, ErrorCode.AMBIGUOUS_GROUPING})
# besides every language's word for devices= (bot.keywords): what people call the devices they count
HARDWARE_WORDS = frozenset({"gpu", "gpus", "tpu", "tpus", "device", "devices", "node", "nodes", "accelerator",
                            "accelerators", "card", "cards", "chip", "chips", "worker", "workers", "rank", "ranks",
                            "hpus", "npus", "xpus", "ipus"})
DEVICE_WORDS = HARDWARE_WORDS | {word for word, quantity in keywords().items() if quantity is D and len(word) > 1}
_MARKUP = re.compile(r"<[^<>]*>|:[a-z0-9_+'-]+:|[*_~`]")  # links and mentions, emoji, styling
_NUMBER = re.compile(r"[+\-]?[\d.,'’\u00a0\u202f]*\d[\d.,'’\u00a0\u202f]*[kKMG万萬만亿億억]?%?")
_WORD_BREAK = re.compile(r"[^\S\u00a0\u202f\u2007]+")  # a no-break space groups digits (`115 200`)
_PER_UNIT = re.compile(r"(?<=[\d%kKMG])/\w+$")
_EDGES = "()[]{}\"“”«»!?;:,."


@dataclass(frozen=True)
class Excerpt:
    """What a message states: its values (read in the author's format), and the question about a number the
    format did not settle, if any."""

    values: dict[Quantity, Decimal] = field(default_factory=dict)
    question: UserInputError | None = None

    @property
    def found_nothing(self) -> bool:
        return not self.values and self.question is None


def read_message(text: str, author: Locale) -> Excerpt:
    """The values `text` states for a writer of `author`'s format (which may be the unknown reader's)."""
    text = _MARKUP.sub(" ", text[:MAX_SCANNED])
    try:
        command = parse_command(text, author)
    except UserInputError:  # prose, or a command with a number in doubt: its other numbers still count
        return _read_prose(text, author)
    return _read_prose(text, author) if command.wants_help else Excerpt(values=dict(command.values))


def _read_prose(text: str, author: Locale) -> Excerpt:
    words = _WORD_BREAK.split(text.strip())
    numbers: list[tuple[Decimal, str, bool]] = []  # value, token, followed by a word for devices
    question = None
    for index, word in enumerate(words):
        if word.startswith("#") or word.endswith(":"):  # a label: `run 7:`, `#12`
            continue
        token = _PER_UNIT.sub("", word.strip(_EDGES))  # `2,000/s`, `2k/GPU`
        if index + 1 < len(words) and words[index + 1] in ("%", "％") and not token.endswith("%"):
            token += "%"  # `90 %`
        if not _NUMBER.fullmatch(token):
            continue
        later = words[index + 1].strip(_EDGES).casefold() if index + 1 < len(words) else ""
        try:
            numbers.append((_read_one(token, author), token, later in DEVICE_WORDS))
        except UserInputError as error:
            question = question or error
    return _checked(_placed(numbers), author, question)


def _read_one(token: str, author: Locale) -> Decimal:
    """One number as its author meant it; UserInputError when it is asked about or is no number."""
    quantity = E if token.endswith("%") else V
    try:
        return parse_fields({quantity: token}, author).values[quantity]
    except FieldErrors as errors:
        error = errors.errors[quantity]
        if error.code in ASKED:
            raise error from None
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token) from None


def _placed(numbers: list[tuple[Decimal, str, bool]]) -> dict[Quantity, str]:
    """The numbers' tokens on the form's fields, by the rules in this module's docstring."""
    placed: dict[Quantity, str] = {}
    rest = list(numbers)

    def take(quantity: Quantity, fits: object) -> None:
        for each in rest:
            if quantity not in placed and fits(each):  # type: ignore[operator]
                placed[quantity] = each[1]
                rest.remove(each)
                return

    take(E, lambda n: n[1].endswith("%"))
    take(D, lambda n: n[2] and n[0] == n[0].to_integral_value() and n[0] >= 1)
    take(E, lambda n: 0 < n[0] <= 1)
    take(D, lambda n: n[0] == n[0].to_integral_value() and n[0] >= 1)
    rest = [each for each in rest if not each[1].endswith("%")]
    if len(rest) >= 2 and V not in placed:
        smaller, larger = sorted(rest[:2], key=lambda n: n[0])
        placed[V], placed[A] = smaller[1], larger[1]
    elif rest:
        placed[V if V not in placed else A] = rest[0][1]
    if len(placed) == len(Quantity):
        del placed[A]  # three are enough; the form solves the fourth
    return placed


def _checked(placed: dict[Quantity, str], author: Locale, question: UserInputError | None) -> Excerpt:
    """The placed values read together, as the form will read them: one number can cast doubt on another
    (`1,234` beside `0,9`). A field in doubt is left empty and asked about; one that cannot be read, left empty."""
    while placed:
        try:
            command = parse_fields(dict(placed), author)
        except FieldErrors as errors:
            for quantity, error in errors.errors.items():
                if error.code in ASKED and question is None:
                    question = error
                placed.pop(quantity, None)
            continue
        return Excerpt(values=dict(command.values), question=question)
    return Excerpt(question=question)
