"""Where the values of a command go, once its words are read: a named or labelled value where its name says, a
percentage to the efficiency, the numbers no unit names to the values left in the order devices, throughput,
efficiency (`bot.reader.grammar`'s `percent_sign`, `bare_numbers_in_order`), and the questions where that order is in
doubt or there is a number too many.
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.grammar import Attachment, Doubt, GrammarRow
from bot.reader.grouping_rules import Grouping
from bot.reader.numbers import SPACES

__all__ = ["POSITIONAL_ORDER", "Word", "placed_values"]

POSITIONAL_ORDER = (Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY)
_STANDS_ALONE = re.compile(r"(?!0\d|0%?$)")  # `012`, `00`, `0%`: no number a user writes on its own


class Word(NamedTuple):
    """A word of a command: a value, named or not."""

    word: str  # as it stands in the command
    quantity: Quantity | None  # what its key names; None for a bare number
    value: str  # the value after its key, or the whole word
    key: str | None  # its key, casefolded (`durchsatz`); None for a bare number


def placed_values(keyed: list[Word], labelled: bool, rows: list[GrammarRow]) -> dict[Quantity, str]:
    """Where each value goes: a named or labelled one where its name says, a percentage to the efficiency
    (`90% 64 2000`), the other numbers to the values left in order (`bot.reader.grammar`'s `bare_numbers_in_order`),
    unless a unit named a number out of that order: then two or more of them are asked about."""
    _refuse_a_name_given_twice(keyed)
    free = list(_unnamed_order(keyed))
    percents = [index for index, each in enumerate(keyed) if each.quantity is None and "%" in each.value]
    # beside a named value, or among fewer bare numbers than the three a command needs, a percentage is the
    # efficiency wherever it stands (`v=2000 90% 64`; `64 2000%` lacks a value, not a place for its `%`); among
    # three, one that could be an efficiency (`90% 64 2000`, never `64 2000% 90`)
    anywhere = any(each.quantity is not None for each in keyed) or len(keyed) < len(POSITIONAL_ORDER)
    percent_free = Quantity.EFFICIENCY in free and len(percents) == 1 and (
        anywhere or _could_be_percent(keyed[percents[0]].value))
    placed: dict[Quantity, str] = {}
    taken: dict[int, Quantity] = {}  # what each number without a name was placed as
    for index, (word, quantity, raw, _) in enumerate(keyed):
        if quantity is None:
            if not free:
                raise _too_many(keyed, index)
            left = [q for q in free if not (percent_free and q is Quantity.EFFICIENCY)]
            if not left and "%" not in raw:  # `64 2000 90 80%`: the percentage is the efficiency, 90 too many
                raise _too_many(keyed, max(index, percents[0]))
            quantity = taken[index] = Quantity.EFFICIENCY if percent_free and "%" in raw else (left or free)[0]
            free.remove(quantity)
        if quantity in placed:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=quantity.value)
        placed[quantity] = raw
    # the rows of `bot.reader.grammar` that placed the numbers no unit named
    rows.extend([Attachment.PERCENT_SIGN] if percent_free and Quantity.EFFICIENCY in taken.values() else [])
    rows.extend([Attachment.BARE_NUMBERS_IN_ORDER] if any("%" not in keyed[i].value for i in taken) else [])
    if labelled:
        _ask_out_of_order(keyed, {index: q for index, q in taken.items() if "%" not in keyed[index].value})
    return placed


def _refuse_a_name_given_twice(keyed: list[Word]) -> None:
    """A quantity two keys or units name is given twice, the second named (`64 GPUs 2000 90% 128 GPUs`: `128 GPUs`,
    never the bare 2000 that the order would then have made a third count of devices)."""
    named: set[Quantity] = set()
    for each in keyed:
        if each.quantity in named:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=each.word, quantity=each.quantity.value)
        if each.quantity is not None:
            named.add(each.quantity)


def _could_be_percent(raw: str) -> bool:
    """Whether a percentage may be the efficiency wherever it stands: not `2000%`, which is none."""
    body = raw.strip("%").strip(SPACES)
    return not (body.isascii() and body.isdigit() and int(body) > 100)


def _ask_out_of_order(keyed: list[Word], taken: dict[int, Quantity]) -> None:
    """Ask about the first of two or more numbers without a name where a unit named a number before it that comes
    later in the order (`2000 img/s 64 90`: 64 devices and 90 %, or 64 % and 90 devices?)."""
    if len(taken) < 2:
        return
    order = {quantity: place for place, quantity in enumerate(POSITIONAL_ORDER)}
    units = [(index, order.get(each.quantity, -1)) for index, each in enumerate(keyed)  # type: ignore[arg-type]
             if each.quantity is not None and "=" not in each.word and ":" not in each.word]
    for index, quantity in taken.items():
        if any(other < index and place > order[quantity] for other, place in units):
            raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=keyed[index].word, rule=Doubt.NUMBERS_OUT_OF_ORDER,
                                 suggestions=tuple(f"{q.value}:{keyed[index].value}" for q in POSITIONAL_ORDER
                                                   if q in taken.values()))


def _too_many(keyed: list[Word], extra: int) -> UserInputError:
    """The error for a bare number one more than the command can take (`keyed[extra]`), naming what is wrong: a
    number split by a space where its second part cannot stand alone (`20 00`, `9 0%`), else the bare numbers
    before an extra percentage (`64 1 50 90%`: the efficiency is clear, the space inside one number is not), else
    the extra number itself (`64 2000 90% 5`)."""
    bare = [index for index, each in enumerate(keyed) if each.quantity is None]
    for before, after in itertools.pairwise(bare):
        if after == before + 1 and not _STANDS_ALONE.match(keyed[after].value):
            return UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{keyed[before].word} {keyed[after].word}",
                                  rule=Grouping.PART_THAT_CANNOT_STAND_ALONE)
    run = list(itertools.takewhile(lambda index: keyed[index].quantity is None, range(extra - 1, -1, -1)))[::-1]
    joinable = any(len(keyed[a].value) <= 3 and len(keyed[b].value) <= 3 for a, b in itertools.pairwise(run))
    # `90%`; a Turkish `%5` may be the one too many; of two percentages (`64 2000 90% 5%`), the last typed is
    if keyed[extra].value.endswith("%") and len(run) > 1 and "%" not in keyed[run[-1]].value:
        if not joinable:  # `64 2000 90 80%`: no two of them are one number; the last before the sign is extra
            return UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=keyed[run[-1]].word,
                                  rule=Grouping.ONE_NUMBER_TOO_MANY)
        return UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(keyed[index].word for index in run),
                              rule=Grouping.NUMBERS_BEFORE_THE_PERCENTAGE)
    return UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=keyed[extra].word, rule=Grouping.ONE_NUMBER_TOO_MANY)


def _unnamed_order(keyed: list[Word]) -> tuple[Quantity, ...]:
    """What the unnamed numbers stand for: the quantities not named (`d=64 2000 90%`: 2000 is the throughput),
    unless there are too many of them for that."""
    named = [each.quantity for each in keyed if each.quantity in POSITIONAL_ORDER]
    if not named or sum(1 for each in keyed if each.quantity is None) + len(named) > len(POSITIONAL_ORDER):
        return POSITIONAL_ORDER
    return tuple(quantity for quantity in POSITIONAL_ORDER if quantity not in named)
