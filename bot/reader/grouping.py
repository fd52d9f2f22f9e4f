"""Which words of a command are one number: spaces group digits in many locales (`2 000`, and ISO 80000-1's
`115 200`, which dpscale writes for channels), Korean spaces a number written by myriads (`11만 5200`), and no locale
reads a space as a decimal mark. A sign standing alone (`90 %`, `2 k`) is `bot.reader.signs`'."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from bot.errors import ErrorCode, UserInputError
from bot.reader.grouping_rules import Grouping, Veto
from bot.reader.myriads import HUNDRED_MILLIONS, MYRIADS, THOUSANDS

KEYED = re.compile(r"([^=:]*)[=:](.*)")  # `key=value` or `key:value`
_GROUP_OF_THREE = re.compile(r"\d{3}(?:\u202f\d{3})*(?:[.,]\d+)?[kKMG]?%?")  # with its own no-break groups
_OWN_GROUP_MARK = re.compile(r"\d[.,]\d{3}(?!\d)")  # `100,000`: grouped in itself, so a number apart
# `2.000`, `2'000`, `2٬000`, or `20000`; not `0,925` (a leading 0 is no group); any Arabic decimal mark (`٣٫٧٥`):
# whoever writes it groups with `٬`
_MARKED_OR_LONG = re.compile(
    r"(?<![\d.,'’\u066c])(?!0[.,'’\u066c])\d+[.,'’\u066c]\d{3}(?!\d)|(?<![\d.,])\d{5}|\d\u066b\d")
LIST_CUT = "\ue001"  # a word where a list's comma stood (`64, 2000`): each item between them is one number
BOUNDARY = "\ue002"  # a word where an emoji stood (`64 :fire: 200`): no number's groups are joined across it
MARKERS = frozenset({LIST_CUT, BOUNDARY})
LABEL = "\ue003"  # opens a word that names the quantity of a number beside it (`bot.reader.labels`): `\ue003GPUs`
_TAKES_GROUP = re.compile(r"(?:[^=:\s]+[=:])?\d{1,3}")
# `11만 5200`, as Korean spaces a number written by myriads (`bot.reader.myriads`): a count of a myriad, then up to
# four digits or a count of thousands; where they are one number is weighed as for a group of three
_MYRIAD_HEAD = re.compile(rf"(?:[^=:\s]+[=:])?(?:\d+[{HUNDRED_MILLIONS}])?[1-9]\d{{0,3}}[{MYRIADS}]")
_MYRIAD_TAIL = re.compile(rf"\d{{1,4}}|\d[{THOUSANDS}](?:\d{{3}})?")
_LEADING_ZERO = re.compile(r"0\d")
MAX_GROUP_CHOICES = 10


def split_keyed(word: str) -> tuple[str, str] | None:
    """`key=value` or `key:value` → (casefolded key, value); None for a bare word."""
    match = KEYED.match(word)
    return (match.group(1).casefold(), match.group(2)) if match else None


def join_space_groups(words: list[str], positional: int, spaced: Callable[[], bool] = lambda: True) -> list[str]:
    """The words with each number's space-separated groups joined again, for a command that needs `positional`
    numbers without a key; never across a list's comma or an emoji (`LIST_CUT`, `BOUNDARY`: `1, 250` is two
    numbers), which go. A command listed with commas has its items for numbers (`_listed`).

    A word of exactly three digits may continue the number before it. Of all ways to join such words, the one
    that gives as many numbers as the command needs wins. The user is asked to write the numbers without inner
    spaces rather than being guessed at where two ways do (where a value is named, a way that gives one number
    too many, all four values, counts too: `64 500 90% a=28,800`), or where the one way leaves a group of three
    with no group mark of its own right after a named value's digits as a number of its own (`a=28 800 64`: an
    actual throughput of 28 with 800 devices, or 28 800 with a number missing?), or, for a reader who does not
    group with spaces (not `spaced()`), two groups of three that could each stand alone (`128 310 82 80%`).
    """
    cuts = [index for index, word in enumerate(words) if word in MARKERS or word[:1] == LABEL]
    if not cuts:
        return _joined(words, positional, set(), spaced)
    starts = {index - before for before, index in enumerate(cuts)}
    plain = [word for word in words if word not in MARKERS and word[:1] != LABEL]
    joined = _listed(plain, starts) if LIST_CUT in words else _joined(plain, positional, starts, spaced)
    return _with_labels(words, joined) if any(word[:1] == LABEL for word in words) else joined


def _with_labels(words: list[str], joined: list[str]) -> list[str]:
    """`joined` (the words' numbers, their groups joined) with the `LABEL` words back where they stood: no number
    is joined across one, so each stands between two of `joined`'s."""
    before: dict[int, list[str]] = {}  # the labels right before each plain word
    waiting: list[str] = []
    count = 0
    for word in words:
        if word[:1] == LABEL:
            waiting.append(word)
        elif word not in MARKERS:
            before[count], waiting, count = waiting, [], count + 1
    placed: list[str] = []
    count = 0
    for segment in joined:
        placed += [*before.get(count, ()), segment]
        count += len(segment.split(" "))
    return placed + waiting


def _listed(words: list[str], starts: set[int]) -> list[str]:
    """A command whose numbers are listed with commas: each item one number, its space-separated groups joined
    (`64, 1 500, 90 %`); asked about where an item is still more than one number once its groups are joined, since
    its writer separated numbers both ways (`1, 200 300 90%`: 1 200 and 300, or 200 300?)."""
    joins = set(_joinable(words, starts))
    item: list[int] = []
    for index in range(len(words) + 1):
        if index == len(words) or index == 0 or index in starts:  # the item so far ends here
            if joins.intersection(item) and len([i for i in item if i not in joins]) > 1:
                raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(words[i] for i in item),
                                     rule=Grouping.LISTED_ITEM_IS_TWO_NUMBERS)
            item = []
        item.append(index)
    if (apart := _grouped_otherwise(words, joins)) is not None:
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=apart, rule=Grouping.GROUPED_OTHERWISE)
    return _segment(words, joins)


def _joined(words: list[str], positional: int, after_cut: set[int], spaced: Callable[[], bool]) -> list[str]:
    """`join_space_groups` of words without list cuts; none joins a word at `after_cut` to the one before it."""
    joinable = _joinable(words, after_cut)
    if not joinable:
        return words
    greedy = _segment(words, set(joinable))
    if len(joinable) > MAX_GROUP_CHOICES:
        return greedy
    needed = positional - sum(1 for word in words if KEYED.match(word))
    fitting: list[set[int]] = []
    for choice in itertools.product((True, False), repeat=len(joinable)):
        chosen = {i for i, join in zip(joinable, choice, strict=True) if join}
        segmented = _segment(words, chosen)
        if _fits(segmented, needed) or (
            needed < positional and _fits(segmented, needed + 1) and not _cut_from_names(words, joinable, chosen)
        ):
            fitting.append(chosen)
    if not fitting:
        _ask_where_a_zero_starts(words, joinable, needed)
        return greedy
    if len(fitting) > 1:
        differing = sorted(set().union(*fitting) - fitting[0].intersection(*fitting[1:]))
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(words[differing[0] - 1 : differing[-1] + 1]),
                             rule=Grouping.SEVERAL_WAYS_FIT)
    _ask_where_doubtful(words, joinable, fitting[0])
    _ask_where_a_myriad_is_cut(words, joinable, fitting[0])
    if fitting[0] and not spaced():
        _ask_where_a_group_stands_alone(words, fitting[0])
    return _segment(words, fitting[0])


def _ask_where_a_zero_starts(words: list[str], joinable: list[int], needed: int) -> None:
    """Ask about a group of three with a leading zero (`64 012 90%`) where, apart, the words are as many numbers as
    the command needs: it continues the number before it only in a way that leaves one missing, and no one writes
    `012` for twelve either."""
    zeros = [index for index in joinable if words[index].startswith("0")]
    if zeros and sum(1 for word in words if not KEYED.match(word)) == needed:
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{words[zeros[0] - 1]} {words[zeros[0]]}",
                             rule=Grouping.GROUP_WITH_A_LEADING_ZERO)


def _ask_where_a_myriad_is_cut(words: list[str], joinable: list[int], joins: set[int]) -> None:
    """Ask where the one way that fits leaves a myriad's rest apart from its count (`1만 2천 90%`: 10 000 devices at
    2 000 samples/s, or 12 000 and a value missing?): Korean spacing writes one number so."""
    for index in joinable:
        if index not in joins and _MYRIAD_HEAD.fullmatch(words[index - 1]) and not KEYED.match(words[index - 1]):
            raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{words[index - 1]} {words[index]}",
                                 rule=Grouping.MYRIAD_REST_LEFT_APART)


def _ask_where_a_group_stands_alone(words: list[str], joins: set[int]) -> None:
    """Ask about a bare number joined from two groups of three that could each stand alone (`128 310`), for a
    reader who does not group with spaces; not `2 000`, `1 500`, `12 500`, nor a named value's (`a=115 200`)."""
    for index in sorted(joins):
        start = index - 1
        while start in joins:
            start -= 1
        if not KEYED.match(words[start]) and not words[index].startswith("0") and len(words[start]) == 3 and (
                words[start].isdigit()):
            end = index
            while end + 1 in joins:
                end += 1
            raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(words[start : end + 1]),
                                 rule=Grouping.GROUP_THAT_STANDS_ALONE)


def _ask_where_doubtful(words: list[str], joinable: list[int], joins: set[int]) -> None:
    """Ask about the one way of joining that fits, where the rest of the command doubts it: another number grouped
    otherwise (`_grouped_otherwise`), or a group of three cut from a named value's digits."""
    if (apart := _grouped_otherwise(words, joins)) is not None:
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=apart, rule=Grouping.GROUPED_OTHERWISE)
    cut = [i for i in _cut_from_names(words, joinable, joins) if not _OWN_GROUP_MARK.search(words[i])]
    if cut:
        start = cut[0] - 1
        while start in joins:  # back to the named value's own word
            start -= 1
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(words[start : cut[0] + 1]),
                             rule=Grouping.GROUP_CUT_FROM_A_NAMED_VALUE)


def _grouped_otherwise(words: list[str], joins: set[int]) -> str | None:
    """The first bare number that `joins` makes of space-separated groups, where another number of the command shows
    that its writer does not group digits with spaces: grouped with a mark (`2.000`, `2,000`, `2'000`), or long
    enough to be grouped and not (`20000`). `64 200 2.000 90 %` is then four numbers (a typo, a value left in),
    not 64 200 devices. Not doubted: groups that cannot stand alone (`2 000`: no one writes `000` for a number), nor
    a named value's (`a=115 200`, a figure copied from a channel)."""
    segments: list[list[int]] = []
    for index in range(len(words)):
        if index in joins:
            segments[-1].append(index)
        else:
            segments.append([index])
    joined = [segment for segment in segments if len(segment) > 1 and not KEYED.match(words[segment[0]])
              and any(not words[index].startswith("0") for index in segment[1:])]
    alone = [KEYED.sub(r"\2", words[segment[0]]) for segment in segments if len(segment) == 1]
    if joined and any(_MARKED_OR_LONG.search(word) for word in alone):
        return " ".join(words[index] for index in joined[0])
    return None


def _joinable(words: list[str], starts: set[int]) -> list[int]:
    """Where a word may continue the number before it: a group of three after one to three digits (`2 000`), or
    a myriad's rest after its count (`11만 5200`), unless it starts anew after a list's comma or an emoji
    (`starts`)."""
    return [i for i in range(1, len(words))
            if i not in starts and ((_GROUP_OF_THREE.fullmatch(words[i]) and _TAKES_GROUP.fullmatch(words[i - 1]))
                                    or (_MYRIAD_TAIL.fullmatch(words[i]) and _MYRIAD_HEAD.fullmatch(words[i - 1])))]


def _cut_from_names(words: list[str], joinable: list[int], joins: set[int]) -> list[int]:
    """The groups of three that `joins` leaves apart although they follow a named value's digits (`a=28`, or
    `a=1 000` with its group)."""
    cut, named = [], False
    for index, word in enumerate(words):
        if index in joins:
            continue
        if index in joinable and named:
            cut.append(index)
        named = bool(KEYED.match(word))
    return cut


def _segment(words: list[str], joins: set[int]) -> list[str]:
    segmented: list[str] = []
    for index, word in enumerate(words):
        if index in joins:
            segmented[-1] += " " + word
        else:
            segmented.append(word)
    return segmented


def _fits(segmented: list[str], needed: int) -> bool:
    """Whether a way of joining survives every veto (`VETOES`)."""
    return not any(veto(segmented, needed) for _, veto in VETOES)


# What rules out a way of joining a command's space-separated groups, by name (`bot.reader.grouping_rules.Veto`): of the
# ways that survive, the one is read and several are asked about (`several_ways_fit`)
VETOES: tuple[tuple[Veto, Callable[[list[str], int], bool]], ...] = (
    (Veto.WRONG_COUNT, lambda segmented, needed: sum(1 for w in segmented if not KEYED.match(w)) != needed),
    (Veto.LEADING_ZERO, lambda segmented, _: any(_LEADING_ZERO.match(KEYED.sub(r"\2", w)) for w in segmented)),
    (Veto.SPACED_PERCENTAGE, lambda segmented, _: any(" " in w and "%" in w for w in segmented)),
)
