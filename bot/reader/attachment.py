"""Attaching labels to numbers, by the rows of `bot.reader.grammar`: each label of a command's marked words
(`bot.reader.marking`) written on the number it names, and the questions where it could be either neighbour's.

    >>> from bot.reader.numbers import resolve_locale
    >>> from bot.reader.parsing import parse_command
    >>> [str(row) for row in parse_command("64 GPUs: 2000 img/s, 90%", resolve_locale("en-US")).grammar]
    ['colon_after_a_unit', 'unit_after_its_number', 'unit_after_its_number', 'percent_sign']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.grammar import (
    CJK,
    PER,
    Attachment,
    Doubt,
    GrammarRow,
    is_node_phrase,
    is_number,
    label_word,
    read_label,
)
from bot.reader.grouping import BOUNDARY, KEYED, LABEL, MARKERS
from bot.reader.keywords import keywords
from bot.reader.labels import CLUSTER, NODES, PER_DEVICE
from bot.reader.marking import FILLER

__all__ = ["Attached", "attach"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
_THREE = re.compile(r"\d{3}(?:[.,]\d+)?[kKMG]?%?")
_CJK_NAME = re.compile(f"[{CJK}]")
KEYWORDS = keywords()


@dataclass(frozen=True)
class Attached:
    """A command's words with each label written on its number, the throughput's unit word as typed, and the
    grammar rows that decided."""

    words: list[str]
    unit: str | None
    rows: tuple[GrammarRow, ...]
    per_device: bool = False  # whether a rate was said to be one device's


def attach(words: list[str], rows: list[GrammarRow], prose: bool = False) -> Attached:
    """The words (their groups joined) with each `LABEL` word written on the number it names, as `number` +
    `LABEL` word, by the rows of `ATTACHMENTS`; a label beside a named value or no number goes. Raises the
    question of `QUESTIONS` where a label could be either neighbour's or one number is named twice over."""
    claims: dict[int, list[tuple[str, str]]] = {}
    pending: list[tuple[str, str]] = []
    last: int | None = None  # the number the label before this word went to
    for index, word in enumerate(words):
        if word == FILLER:
            continue
        if word[:1] != LABEL:
            if pending and is_number(word):
                claims.setdefault(index, []).extend(pending)
                rows.append(Attachment.LABEL_BEFORE_ITS_NUMBER)
            if is_number(word) or word in MARKERS:  # a word not understood keeps a phrase's per-device words
                pending, last = [label for label in pending if word == BOUNDARY and label[0] == PER], None
            elif pending and KEYED.match(word):  # `img/s v=2000 64`: the label is the named value's, not 64's
                pending, last = [], None
            continue
        label = read_label(word)
        previous = next((i for i in range(index - 1, -1, -1) if words[i] != FILLER), None)  # past `scaling`
        before = previous if previous is not None and is_number(words[previous]) else None
        if before is not None and _names_the_one_after(words, index, label, before in claims):
            before = None
        if before is not None:
            _ask_about_a_cut_group(words, before)
            claims.setdefault(before, []).append(label)
            rows.append(Attachment.UNIT_AFTER_ITS_NUMBER)
            last = before
        elif last is not None and _combined({label[0], *(name for name, _ in claims[last])}) is not None:
            claims[last].append(label)
            rows.append(Attachment.UNIT_BESIDE_A_UNIT)
        else:
            pending.append(label)
            last = None
    return _written(words, {index: labels for index, labels in claims.items()}, rows, prose)


def _ask_about_a_cut_group(words: list[str], number: int) -> None:
    """Ask where a unit follows a group of three that a number stands right before (`115 200 img/s`, its groups
    left apart by the count of numbers): 115 200 samples/s, or 115 of something and 200 samples/s?"""
    if number and _THREE.fullmatch(words[number]) and re.fullmatch(r"\d{1,3}", words[number - 1]):
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{words[number - 1]} {words[number]}",
                             rule=Doubt.GROUP_BEFORE_A_UNIT)


def _names_the_one_after(words: list[str], index: int, label: tuple[str, str], before_named: bool) -> bool:
    """Whether a name between two numbers is the one after it's: an efficiency word (`2000 efficiency 90%`) or a
    throughput's name with no slash (`처리량`, `吞吐量`), words written before the value they name as often as after
    it, where the number before is named already (`디바이스 64 처리량 2000`) or a percent sign says which; asked where
    nothing does. A CJK key word for devices only where the number before is named (`처리량 2000 디바이스 64`); a
    CJK word that says whose a rate is, one device's or the cluster's (`单卡`, `每张`, `各`, `대당`, `总`, `合計`),
    always where a number follows it, as those languages write it before the rate; a unit (`GPUs`, `img/s`, `台`)
    is always the one before's."""
    quantity, shown = label
    if quantity == PER and _CJK_NAME.search(shown):  # `64 单卡2000`, `64 1台あたり2000`, `대당 2000`: CJK says
        # whose a rate is before the rate, past a throughput's name between them (`单卡 吞吐量 2000`); with no rate
        # after it, only a percentage, the one before (`64 2000 单卡 90%`). Where a percentage stands between it and
        # a rate (`64 单卡 90% 2000`), the label goes to the next number, the percentage, and is refused there.
        ahead = next((word for word in words[index + 1:] if word != FILLER and "%" not in word
                      and not (word[:1] == LABEL and read_label(word)[0] == V.value)), "")
        return is_number(ahead)
    after = words[index + 1] if index + 1 < len(words) else ""
    if "/" in shown or not is_number(after):
        return False
    if quantity == A.value and _CJK_NAME.match(shown) and shown.casefold() in CLUSTER:
        return "%" not in after  # `总115200样本/秒`: a cluster word before its rate
    if quantity == D.value:  # a CJK key word for devices (`디바이스`, `设备`) names a count after it, not a counter
        return before_named and _CJK_NAME.match(shown) is not None and shown.casefold() in KEYWORDS
    if quantity not in (E.value, V.value):
        return False
    before = words[index - 1]
    if before_named:
        return True
    signed_before, signed_after = "%" in before, after.endswith("%") or after.startswith("%")
    if signed_before or signed_after:  # a percentage is the efficiency, and is no throughput
        return not signed_before if quantity == E.value else not signed_after
    raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=f"{before} {shown} {after}",
                         quantity=quantity, rule=Doubt.LABEL_BETWEEN_TWO_NUMBERS,
                         suggestions=(f"{quantity}:{before}", f"{quantity}:{after}"))


def _combined(names: set[str]) -> str | None:
    """What the labels of one number name together (`img/s` and `per GPU`: one device's rate); None where they
    name different things."""
    if len(names) == 1:
        return next(iter(names))
    if names <= {V.value, PER}:
        return PER
    if names <= {V.value, A.value}:
        return A.value
    return None


def _ask_about_nodes(words: list[str], claims: dict[int, list[tuple[str, str]]]) -> None:
    """A count of nodes (`8 nodes`) is the count of devices only beside a rate said to be one node's (`per node`,
    `each`) and no count of other devices (`8 nodes with 8 GPUs each`); a rate per node only beside a count of
    nodes. A node holds several devices, so `8 nodes 2000 90%` may be 8 devices or 64: asked about."""
    nodes = [i for i, labels in claims.items() if any(q == D.value and s.casefold() in NODES for q, s in labels)]
    per = {i: [s for q, s in labels if q == PER] for i, labels in claims.items()}
    per_node = [i for i, said in per.items() if any(map(is_node_phrase, said))]
    each = any(s.casefold() in PER_DEVICE for said in per.values() for s in said)
    # `per GPU`, `每张卡`, `1台あたり`: a device's rate, not a node's (`各`, `각` alone say each, as `each` does)
    per_device = any(s.endswith(" device") or (_CJK_NAME.search(s) is not None and s not in ("各", "각"))
                     for said in per.values() for s in said)
    others = per_device or any(q == D.value and i not in nodes for i, labels in claims.items() for q, _ in labels)
    asked = nodes[0] if nodes and (others or not (per_node or each)) else (
        per_node[0] if per_node and (others or not nodes) else None)
    if asked is not None:
        raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=" ".join([words[asked], *(s for _, s in claims[asked])]),
                             quantity=D.value, rule=Doubt.COUNT_OF_NODES)


def _ask_about_a_bare_cluster_number(words: list[str], claims: dict[int, list[tuple[str, str]]]) -> None:
    """A CJK word for the whole cluster names a number with no rate unit (`总 64`, `합계 64`) where no count of
    devices is named: the cluster's throughput, or its count (64 cards in all)? Asked, not guessed;
    `总115200样本/秒` is a rate, and so is `总115200` beside `64卡`."""
    counted = any(q == D.value for labels in claims.values() for q, _ in labels)  # `64卡`: the count is given
    for index, labels in claims.items():
        if not counted and all(q == A.value and _CJK_NAME.match(s) and s.casefold() in CLUSTER for q, s in labels):
            raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=" ".join([*(s for _, s in labels), words[index]]),
                                 rule=Doubt.CLUSTER_WORD_ON_A_BARE_NUMBER,
                                 suggestions=(f"{A.value}:{words[index]}", f"{D.value}:{words[index]}"))


def _written(words: list[str], claims: dict[int, list[tuple[str, str]]], rows: list[GrammarRow],
             prose: bool) -> Attached:
    _ask_about_nodes(words, claims)
    _ask_about_a_bare_cluster_number(words, claims)
    named: dict[int, tuple[str, str]] = {}
    for index, labels in claims.items():
        name = _combined({label for label, _ in labels})
        if name is None:
            raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=" ".join([words[index], *(s for _, s in labels)]),
                                 rule=Doubt.TWO_UNITS_ON_ONE_NUMBER, suggestions=tuple(
                                     f"{V.value if label == PER else label}:{words[index]}" for label, _ in labels))
        rate = [shown for label, shown in labels if label == V.value and "/" in shown]  # beside `per GPU`, `each`
        named[index] = (name, (rate or [shown for label, shown in labels if label == name] or [labels[0][1]])[0])
    before = set(named)
    _settle_rates(words, named, rows)
    dropped = before - set(named)  # `1 GPU` beside another count: no value of its own
    per_device = any(name == PER for name, _ in named.values())
    unit = next((shown for index, (name, shown) in sorted(named.items())
                 if name in (V.value, PER) and "/" in shown and not shown.startswith("/")), None)
    out = []
    for index, word in enumerate(words):
        if index in named:
            name, shown = named[index]
            out.append(word + label_word(V if name == PER else Quantity(name), shown))
        elif index not in dropped and word[:1] != LABEL and word != BOUNDARY and (
                not prose or is_number(word) or KEYED.match(word)):
            out.append(word)
    return Attached(out, unit, tuple(rows), per_device)


def _settle_rates(words: list[str], named: dict[int, tuple[str, str]], rows: list[GrammarRow]) -> None:
    """`1 GPU` beside another count: the rate after it is one device's (`one_device_beside_a_count`); then of a
    rate said to be one device's and another, the other is the cluster's (`per_device_beside_a_cluster_rate`)."""
    devices = [index for index, (name, _) in named.items() if name == D.value]
    ones = [index for index in devices if words[index].strip() == "1"]
    if ones and len(devices) > 1:
        for one in ones:
            del named[one]
            rate = next((index for index in sorted(named) if index > one and named[index][0] == V.value), None)
            if rate is not None:
                named[rate] = (PER, named[rate][1])
        rows.append(Attachment.ONE_DEVICE_BESIDE_A_COUNT)
    per = [index for index, (name, _) in named.items() if name == PER]
    plain = [index for index, (name, _) in named.items() if name == V.value]
    if len(per) == 1 and len(plain) == 1:
        named[plain[0]] = (A.value, named[plain[0]][1])
        rows.append(Attachment.PER_DEVICE_BESIDE_A_CLUSTER_RATE)
