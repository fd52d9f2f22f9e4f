"""A command's (or a message's) words marked for the grammar of labelled numbers (`bot.reader.grammar`): fillers
gone, percent words made their number's sign (`90 percent` → `90%`), units split from the numbers they are written
on (`64台` → `64`, `台`), and each label a `LABEL` word; a word no row knows is named (in a message, it goes).
`bot.reader.attachment` then writes each label on the number it names."""

from __future__ import annotations

import re

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.grammar import (
    CJK,
    NUM,
    PER,
    PER_MARK,
    Attachment,
    Doubt,
    GrammarRow,
    is_number,
    label_word,
    read_label,
    rewrite,
)
from bot.reader.grouping import BOUNDARY, KEYED, LABEL, MARKERS
from bot.reader.keywords import keywords
from bot.reader.labels import CLUSTER, PER_DEVICE, fillers, joined_percent_words, label_of, percent_words

__all__ = ["FILLER", "has_words", "mark_words"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
KEYWORDS = keywords()
FILLER = LABEL + "\ue005"  # where a filler stood (`at`, `×`, `avec`)
_UNIT_LIKE = re.compile(r"[^\W\d_]{1,12}/\w+|[A-Z]{2,}[a-z]?s?|\w*FLOPS|\w*[Ff]lops")
_ATTACHED = re.compile(rf"(?i)({NUM}%?)([^\d\s%.,'’][^\s]*)")
_PARTICLE = re.compile(r"(?:で|と|の|に|は|を|에서|으로|로|의|을|를|은|는|이|가)$")
_TRAILING = ",;."
_CJK_START = re.compile(f"[{CJK}]")
_PERCENT_ON = re.compile(r"(\d[\d.,]*)([^\W\d_]+)")  # a percent word written on its number: `90pct`


def has_words(words: list[str]) -> bool:
    """Whether any word is no number and no named value, or a unit with a colon: only then is there a label or a
    filler to look for."""
    return any((not KEYED.match(word) and _has_letter(word))
               or (":" in word and label_of(word.split(":", 1)[0]) in (D, V))
               or (not word.isascii() and word not in MARKERS) for word in words)


_ASCII_LETTER = re.compile("[A-FH-JLN-Za-jl-z]")  # any ASCII letter but a suffix's (k, K, M, G)


def _has_letter(word: str) -> bool:
    """Whether `word` has a letter that is no number's k, M or G suffix."""
    if word.isascii():
        return _ASCII_LETTER.search(word) is not None
    return any(c.isalpha() and c not in "kKMG" for c in word)


def mark_words(words: list[str], rows: list[GrammarRow], prose: bool = False) -> list[str]:
    """The words with fillers gone, percent words made their number's sign (`90 percent` → `90%`), units written
    on a number split from it (`64台` → `64`, `台`), and each label a `LABEL` word (`label_word`): no number's
    space-separated groups are joined across it. In `prose` (a channel's message) a word not understood goes, and
    so does a number with a unit dpscale does not read (`120 ms`); in a command it is named."""
    marked: list[str] = []
    for word in filter(None, rewrite(joined_percent_words(" ".join(words)), rows).split(" ")):
        key = word.casefold().rstrip(_TRAILING)
        if not key:  # a comma or a stop a phrase left standing: `per device, 64`
            continue
        if (bare := _bare_label(key)) is not None:  # `台で`, `个设备`: a particle after a label, a filler before it
            word = key = bare
        if key in fillers():
            rows.append(Attachment.FILLER)
            marked.append(FILLER)  # says nothing, but no number's groups are joined across it: `128 × 310 img/s`
        elif key in percent_words() and marked and is_number(marked[-1]):
            marked[-1] += "%"
        elif (signed := _PERCENT_ON.fullmatch(key)) and signed.group(2) in percent_words():  # `90pct`, `90percent`
            marked.append(signed.group(1) + "%")
        elif (keyed := KEYED.match(word)) and _cluster_before(keyed.group(1), marked):
            marked.extend(mark_words([keyed.group(2)], rows, prose))  # `actual throughput: 115200`: the cluster's
        elif (keyed := KEYED.match(word)) and ":" in word and _unit_colon(keyed.group(1), marked, prose):
            rows.append(Attachment.COLON_AFTER_A_UNIT)
            marked.append(label_word(_label(keyed.group(1).casefold()) or V, keyed.group(1)))
            marked.extend(mark_words([keyed.group(2)], rows, prose) if keyed.group(2) else [])
        elif (quantity := _label(key)) is not None:
            marked.append(label_word(quantity, word.rstrip(_TRAILING)))
        elif (split := _split_attached(word) or _cjk_label_first(word, marked, rows)) is not None:
            rows.append(Attachment.UNIT_ON_ITS_NUMBER)
            marked.extend(split)
        else:
            _unknown(word, marked, prose)
    return marked


def _bare_label(key: str) -> str | None:
    """A CJK label with a Japanese or Korean particle after it (`台で`) or a filler before it (a Chinese measure
    word, `个设备`, `個樣本/秒`), without it; None for any other word."""
    if (particle := _PARTICLE.search(key)) and _label(key[: particle.start()]) is not None:
        return key[: particle.start()]
    filler = next((word for word in fillers() if _CJK_START.match(word) and key.startswith(word)), "")
    return key[len(filler):] if filler and _label(key[len(filler):]) is not None else None


def _label(key: str) -> Quantity | str | None:
    if key.startswith(PER_MARK) or key in PER_DEVICE:
        return PER
    if key in CLUSTER:
        return A
    return V if key in ("/s", "/sec") else label_of(key)


def _cluster_before(key: str, marked: list[str]) -> bool:
    """Whether a throughput's key follows a cluster word (`actual throughput: 115200`): the value is the actual."""
    return bool(marked) and marked[-1][:1] == LABEL and read_label(marked[-1])[0] == A.value and (
        KEYWORDS.get(key.casefold()) is V)


def _unit_colon(key: str, marked: list[str], prose: bool) -> bool:
    """Whether a `key:` is a unit's colon, punctuation: after a number (`64 GPUs: 2000`), or in a message."""
    quantity = _label(key.casefold())
    return quantity is not None and (prose or (quantity in (D, V, PER) and bool(marked) and is_number(marked[-1])))


def _split_attached(word: str) -> list[str] | None:
    """A number with a unit written on it: `64GPUs`, `2000img/s`, `2000/s`, `2k/GPU`; None for any other word. A
    letter a suffix could be is the unit's where only so the unit is known (`64GPU`, `8MI300X`: not 64 G of `PU`)."""
    match = _ATTACHED.fullmatch(word.rstrip(_TRAILING)) if word[:1].isdigit() else None
    if match is None:
        return None
    number, unit = match.groups()
    if _label(unit.casefold()) is None and number[-1].isalpha():
        number, unit = number[:-1], number[-1] + unit
    quantity = V if unit.casefold() in ("/s", "/sec") else _label(unit.casefold())
    return None if quantity is None else [number, label_word(quantity, unit)]


def _cjk_label_first(word: str, marked: list[str], rows: list[GrammarRow]) -> list[str] | None:
    """After a number, a CJK word that starts with a unit (`台设备`, `块卡跑到`): the unit, and the rest read apart."""
    if not _CJK_START.match(word) or not marked or not is_number(marked[-1]) or KEYED.match(word):
        return None
    for length in range(min(len(word) - 1, 4), 0, -1):
        if (quantity := _label(word[:length].casefold())) is not None:
            return [label_word(quantity, word[:length]), *mark_words([word[length:]], rows)]
    return None


def _unknown(word: str, marked: list[str], prose: bool) -> None:
    """A word the grammar does not know: named as a unit after a number (`2000 TFLOPS`), kept for the error of an
    unknown word otherwise; in a message, gone, with a number whose unit it is."""
    after_number = bool(marked) and is_number(marked[-1])
    if "\ue000" <= word[:1] <= "\ue0ff":  # a mark a reader left (a list's comma, an emoji's place, `on`)
        marked.append(word if word in MARKERS else BOUNDARY)
        return
    if prose:
        if after_number and _UNIT_LIKE.fullmatch(word):
            marked.pop()  # `120 ms`, `80 GB`: a number that is none of the four
        if is_number(word) or KEYED.match(word):
            marked.append(word)
        else:
            marked.append(BOUNDARY)  # nothing joins across a word not understood
        return
    if after_number and _UNIT_LIKE.fullmatch(word.rstrip(_TRAILING)):
        raise UserInputError(ErrorCode.UNKNOWN_UNIT, token=word.rstrip(_TRAILING), rule=Doubt.UNKNOWN_UNIT)
    marked.append(word)
