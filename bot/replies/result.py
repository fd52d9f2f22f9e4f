"""The answer to a calculation: headline, the figures, a bar, the worked formula, notes, then the explanations."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from bot.model.calculator import Quantity, Result
from bot.reader.numbers import exact_decimals, round_half_up
from bot.reader.parsing import Note
from bot.reader.reading import ReadingKind
from bot.reader.recipient import Recipient
from bot.replies.blocks import Reply, code, context, fields, header, section
from bot.replies.guide import FaqExample, explanation_blocks
from bot.replies.wording import Wording, wording_for

BAR_WIDTH = 20
MAX_GIVEN_DIGITS = 8  # decimals a given value is shown with, at most
E, V = Quantity.EFFICIENCY, Quantity.THROUGHPUT


@dataclass(frozen=True)
class Figures:
    """Every number of a result, written once in the reader's locale."""

    devices: str
    throughput: str
    efficiency: str  # as a percentage
    efficiency_fraction: str
    ideal: str
    actual: str
    speedup: str
    speedup_number: str  # without the language's multiple sign: the worked formula writes `×` as mathematics does
    devices_times: str
    loss: str
    loss_share: str
    target: str
    count: int  # the number of devices, for plural forms
    throughput_rate: str  # the rates, each with its unit in its plural, written once for every sentence that shows it
    actual_rate: str
    ideal_rate: str
    loss_rate: str

    @classmethod
    def of(cls, result: Result, words: Wording) -> Figures:
        """Solved values rounded for reading; given ones with every digit the user gave (up to a limit), so
        the worked formula multiplies the very numbers it shows: 12.345 % is 0.12345, not 0.1234."""
        devices, speedup = words.number(result.devices, 0), words.number(result.speedup)
        solved = result.solved
        percent_digits = exact_decimals(result.efficiency * 100, 2, MAX_GIVEN_DIGITS) if solved is not E else 2
        throughput_digits = exact_decimals(result.throughput, 2, MAX_GIVEN_DIGITS) if solved is not V else 2
        throughput, ideal = words.number(result.throughput, throughput_digits), words.number(result.ideal)
        actual, loss = words.number(result.actual), words.number(result.loss)
        return cls(
            devices=devices,
            throughput=throughput,
            efficiency=words.percent(result.efficiency, percent_digits),
            efficiency_fraction=words.number(result.efficiency, percent_digits + 2),
            ideal=ideal,
            actual=actual,
            speedup=words.times(speedup),
            speedup_number=speedup,
            devices_times=words.times(devices),
            loss=loss,
            loss_share=_loss_share(result.efficiency, percent_digits, words),
            target=words.number(result.target) if result.target is not None else "",
            count=int(result.devices),
            throughput_rate=words.rate(throughput),
            actual_rate=words.rate(actual),
            ideal_rate=words.rate(ideal),
            loss_rate=words.rate(loss),
        )


def _loss_share(efficiency: Decimal, digits: int, words: Wording) -> str:
    """The loss's share of ideal, 100 % less the efficiency as shown (78.13 % beside 21.87 %, not 21.88 %); its own
    share where the efficiency shows as 100 %, so that a loss is never said to be 0 %."""
    digits = words.percent_digits(efficiency, digits)
    shown = round_half_up(efficiency * 100, digits)
    return words.percent(1 - efficiency if shown == 100 else (100 - shown) / 100, digits if shown < 100 else 2)


def build_result_reply(result: Result, notes: tuple[Note, ...], recipient: Recipient, unit: str | None = None) -> Reply:
    """The full answer: headline, the numbers, a bar, the worked formula, notes, FAQ and limits; rates in the
    user's `unit` word where the command named one."""
    words = wording_for(recipient).with_unit(unit)
    figures = Figures.of(result, words)
    blocks = [
        header(headline(result, figures, words)),
        fields(result_fields(result, figures, words)),
        section(bar(result, figures, words)),
        section(formula(result, figures, words)),
    ]
    remarks = words.language_note() + [reading_note(note, words) for note in notes] + model_notes(result, figures, words)
    if remarks:
        blocks.append(context(remarks))
    blocks.extend(explanation_blocks(recipient, FaqExample(figures.efficiency, figures.devices, figures.speedup_number,
                                                       figures.count)))
    return Reply(text=summary(figures, words), blocks=blocks, locale=str(recipient))


def headline(result: Result, figures: Figures, words: Wording) -> str:
    _ = words.gettext
    if result.solved is Quantity.EFFICIENCY and result.target is not None:  # `target=7000`: what it takes
        return _("Scaling efficiency needed: {efficiency}").format(efficiency=figures.efficiency)
    if result.solved is Quantity.EFFICIENCY:
        return _("Measured scaling efficiency: {efficiency}").format(efficiency=figures.efficiency)
    if result.solved is Quantity.DEVICES:
        return _("Devices needed: {devices}").format(devices=figures.devices)
    if result.solved is Quantity.THROUGHPUT:
        return _("Per-device throughput needed: {rate}").format(rate=figures.throughput_rate)
    return _("Actual throughput: {rate}").format(rate=figures.actual_rate)


def summary(figures: Figures, words: Wording) -> str:
    """The notification text: one line with every figure."""
    return words.fill(words.ngettext(
        "{devices} device × {rate} at {efficiency} efficiency: {actual} actual, {speedup} speedup",
        "{devices} devices × {rate} at {efficiency} efficiency: {actual} actual, {speedup} speedup",
        figures.count,
    ),
        devices=figures.devices,
        rate=figures.throughput_rate,
        efficiency=figures.efficiency,
        actual=figures.actual_rate,
        speedup=figures.speedup,
    )


@lru_cache(maxsize=64)  # per locale (`wording_for` makes one Wording per recipient)
def _labels(words: Wording, solved: Quantity) -> dict[Quantity, str]:
    _ = words.gettext
    labels = {
        Quantity.DEVICES: _("Devices"),
        Quantity.THROUGHPUT: _("Per-device throughput"),
        Quantity.EFFICIENCY: _("Scaling efficiency"),
        Quantity.ACTUAL: _("Actual throughput"),
    }
    # one entry per quantity: the marker agrees with its label (`Efficacité de scaling (calculée)`)
    calculated = {
        Quantity.DEVICES: words.pgettext("devices", "{label} (calculated)"),
        Quantity.THROUGHPUT: words.pgettext("throughput", "{label} (calculated)"),
        Quantity.EFFICIENCY: words.pgettext("efficiency", "{label} (calculated)"),
        Quantity.ACTUAL: words.pgettext("actual throughput", "{label} (calculated)"),
    }
    labels[solved] = calculated[solved].format(label=labels[solved])
    return labels


def result_fields(result: Result, figures: Figures, words: Wording) -> list[tuple[str, str]]:
    _ = words.gettext
    labels = _labels(words, result.solved)
    speedup = _("{speedup} (ideal {ideal})").format(speedup=figures.speedup, ideal=figures.devices_times)
    loss = _("{rate} ({share} of ideal)").format(rate=figures.loss_rate, share=figures.loss_share)
    return [
        (labels[Quantity.DEVICES], words.counted(figures.devices)),
        (labels[Quantity.THROUGHPUT], figures.throughput_rate),
        (labels[Quantity.EFFICIENCY], figures.efficiency),
        (_("Ideal throughput"), figures.ideal_rate),
        (labels[Quantity.ACTUAL], figures.actual_rate),
        (_("Speedup over one device"), speedup),
        (_("Scaling loss"), loss),
    ]


def bar_blocks(efficiency: Decimal) -> int:
    """How many of the bar's blocks are filled: the efficiency rounded, but never none for a working cluster."""
    filled = int((efficiency * BAR_WIDTH).to_integral_value())
    return min(BAR_WIDTH, max(1 if efficiency > 0 else 0, filled))


def bar(result: Result, figures: Figures, words: Wording) -> str:
    filled = bar_blocks(result.efficiency)
    drawing = "█" * filled + "░" * (BAR_WIDTH - filled)
    return words.gettext("`{bar}` actual throughput is {share} of ideal").format(bar=drawing, share=figures.efficiency)


def _worked(value: Decimal, shown: str, words: Wording, least: int = 2, solved: bool = False) -> str:
    """A figure of the worked formula with every decimal it has where it has at most `MAX_GIVEN_DIGITS` (a solved
    efficiency of 0.78125, so that 64 × 0.78125 = 50 multiplies as shown: 0.7812 did not); beyond that, a `solved`
    value keeps that many (0.83333333, from which the lines below it multiply out) and a product `least`. `shown`
    is `value` as the figures write it, with `least` decimals: where those are all it has, that is the figure."""
    decimals = exact_decimals(value, least, MAX_GIVEN_DIGITS + 1)
    if decimals == least or (decimals > MAX_GIVEN_DIGITS and not solved):
        return shown
    return words.number(value, min(decimals, MAX_GIVEN_DIGITS))


def _rounded(value: Decimal) -> bool:
    """Whether the formula shows `value` rounded: it has more decimals than `MAX_GIVEN_DIGITS`."""
    return exact_decimals(value, 0, MAX_GIVEN_DIGITS + 1) > MAX_GIVEN_DIGITS


def formula(result: Result, figures: Figures, words: Wording) -> str:
    """The worked formula: given values as the figures show them, a solved one with the digits that make it exact
    (up to `MAX_GIVEN_DIGITS`), and each product with its digits, or as the figures round it where a factor was
    rounded, so that every line multiplies as shown."""
    d, solved = figures.devices, result.solved
    v = _worked(result.throughput, figures.throughput, words, solved=True) if solved is V else figures.throughput
    e = _worked(result.efficiency, figures.efficiency_fraction, words, 4, solved=True) if solved is E else figures.efficiency_fraction
    ideal = figures.ideal if solved is V and _rounded(result.throughput) else _worked(result.ideal, figures.ideal, words)
    actual = _worked(result.actual, figures.actual, words)
    ideal_line = f"I = d · v = {d} × {v} = {ideal}"
    actual_line = f"A = I · E = {ideal} × {e} = {actual}"
    if solved is Quantity.EFFICIENCY:
        lines = [ideal_line, f"E = A / I = {actual} / {ideal} = {e} ({figures.efficiency})"]
    elif solved is Quantity.THROUGHPUT:
        lines = [f"v = A / (d · E) = {actual} / ({d} × {e}) = {v}", ideal_line]
    elif solved is Quantity.DEVICES:
        lines = [f"d = ⌈A / (v · E)⌉ = ⌈{figures.target or actual} / ({v} × {e})⌉ = {d}", ideal_line, actual_line]
    else:
        lines = [ideal_line, actual_line]
    speedup = figures.speedup_number if solved is E and _rounded(result.efficiency) else _worked(result.speedup, figures.speedup_number, words)
    lines.append(f"S = d · E = {d} × {e} = {speedup}×")
    return words.gettext("*The formula with your numbers*") + "\n```" + "\n".join(lines) + "```"


def reading_note(note: Note, words: Wording) -> str:
    """Why a value was read the way it was, and how to write the other reading."""
    _ = words.gettext
    value = noted_value(note.reading.value, note.quantity, words)
    token = code(note.reading.token)
    if note.reading.kind is ReadingKind.AMBIGUOUS and note.reading.alternative is not None:
        other = noted_value(note.reading.alternative, note.quantity, words)
        return _(
            ":mag: I read {token} as {value} in your number format. If you meant {other}, write {example}."
        ).format(token=token, value=value, other=other, example=code(other))
    if note.reading.kind is ReadingKind.OTHER_CONVENTION:
        return _(":mag: {token} is not written in your number format; I read it as {value}.").format(
            token=token, value=value
        )
    if note.bare_one:
        return _(":mag: I read {token} as a fraction: {value}. If you meant {one}, write {example}.").format(
            token=token, value=words.hundred, one=words.percent(Decimal("0.01")),
            example=code(words.percent(Decimal("0.01"))),
        )
    return _(
        ":mag: I read {token} as a percentage: {value}. To be explicit, write a fraction such as {example} or add "
        "a percent sign."
    ).format(token=token, value=value, example=code(words.number(note.reading.value, 4)))  # 95: `0.95`, not `0.9`


def noted_value(value: Decimal, quantity: Quantity, words: Wording) -> str:
    """A value as a note shows it: without grouping, so `2000` and `2` can never be mistaken for each other."""
    if quantity is Quantity.EFFICIENCY:
        return words.percent(value, 4)
    return words.plain(value)


def model_notes(result: Result, figures: Figures, words: Wording) -> list[str]:
    """What the model's assumptions mean for this particular result."""
    _ = words.gettext
    notes = []
    if result.devices == 1 and result.efficiency < 1:
        notes.append(single_device_note(result, figures, words))
    if result.solved is Quantity.EFFICIENCY and result.devices > 1 and result.target is None:  # a measured one
        notes.append(words.ngettext(
            ":information_source: This efficiency holds for {devices} device. It usually drops as devices are "
            "added, so measure again at other sizes.",
            ":information_source: This efficiency holds for {devices} devices. It usually drops as devices are "
            "added, so measure again at other sizes.",
            figures.count,
        ).format(devices=figures.devices))
    exact = result.target is not None and result.actual == result.target  # nothing was rounded: 115,200 = 64 × 1,800
    if result.solved is Quantity.DEVICES and result.devices == 1:
        if not exact:
            notes.append(words.fill(_(":information_source: Rounded up to one whole device; with these figures it "
                                      "delivers {rate}."),
                                    rate=figures.actual_rate))
    elif result.solved is Quantity.DEVICES and exact:
        notes.append(words.fill(_(":information_source: This assumes the efficiency stays at {efficiency} at that "
                                  "size; it usually drops as a cluster grows."), efficiency=figures.efficiency))
    elif result.solved is Quantity.DEVICES:
        notes.append(words.fill(words.ngettext(
            ":information_source: Rounded up to {devices} device, which delivers {rate}. This assumes the "
            "efficiency stays at {efficiency} at that size; it usually drops as a cluster grows.",
            ":information_source: Rounded up to {devices} devices, which deliver {rate}. This assumes the "
            "efficiency stays at {efficiency} at that size; it usually drops as a cluster grows.",
            figures.count,
        ), devices=figures.devices, rate=figures.actual_rate, efficiency=figures.efficiency))
    return notes


def single_device_note(result: Result, figures: Figures, words: Wording) -> str:
    """One device below 100 %: the figures shown are the user's, and why one device has no scaling loss of its
    own (a given efficiency is applied as given; a measured one says the two throughputs were measured apart)."""
    _ = words.gettext
    rate = figures.throughput_rate
    if result.solved is Quantity.EFFICIENCY:
        return words.fill(_(
            ":information_source: A single device always delivers its full per-device throughput, so its scaling "
            "efficiency is {hundred} by definition. An actual throughput of {actual} against {rate} per device "
            "means the two were measured differently (with a different batch size or input pipeline, for example)."
        ), hundred=words.hundred, actual=figures.actual_rate, rate=rate)
    return words.fill(_(
        ":information_source: These figures use the {efficiency} you gave, but a single device always delivers its "
        "full per-device throughput ({rate}), so its scaling efficiency is {hundred} by definition. Efficiency only "
        "matters with two or more devices."
    ), efficiency=figures.efficiency, rate=rate, hundred=words.hundred)
