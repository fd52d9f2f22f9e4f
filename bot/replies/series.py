"""The answer to a measurement series: a table of every measured size (devices, measured A, ideal I, efficiency E
with a bar, speedup S, serial fraction e), the trend of E per doubling of the cluster, one sentence on what the
serial fraction's course means, and, said plainly, any measurement the model cannot explain (A above ideal, a
speedup that falls as devices are added). Nothing is extrapolated to a size not measured, unless asked for with
`at=128`: then the forecast follows, as ranges of two models (`bot.replies.forecast`).

The FAQ is not under the table: it is one click away (the result's button, or App Home); the limits stay.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from decimal import Decimal
from enum import Enum

from bot.errors import UserInputError
from bot.model.series import Point, SerialTrend, Series, decimal
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import SeriesCommand
from bot.replies.blocks import Block, Reply, ReplyKind, code, context, header, section
from bot.replies.guide import limits_block, series_example
from bot.replies.problems import describe_error
from bot.replies.result import reading_note
from bot.replies.wording import Wording, wording_for

__all__ = ["SERIES_TABLE_BLOCK", "build_series_error_reply", "build_series_reply", "series_table", "summary"]

BAR_WIDTH = 10
SERIES_TABLE_BLOCK = "dpscale_series_table"  # the table's block id: what tells a series reply from a single result
NOTES_LIMIT = 2900  # a section's text is cut at 3000 characters
COLUMNS = ("d", "A", "I", "E", "", "S", "e")  # the model's own letters: every language reads them alike
BAR_COLUMN = 4
SPEEDUP_COLUMN = COLUMNS.index("S")


def build_series_reply(series: Series, command: SeriesCommand, recipient: Recipient) -> Reply:
    """The table, its legend, the trend, what contradicts the model, how numbers were read, and the limits."""
    words = wording_for(recipient)
    _ = words.gettext
    count = len(series.points)
    blocks: list[Block] = [
        header(words.ngettext("Scaling efficiency at {count} cluster size",
                              "Scaling efficiency at {count} cluster sizes", count).format(count=count)),
        section(words.fill(_("One device delivers {rate}; the ideal for d devices is I = d · v."),
                           rate=words.rate(words.number(decimal(series.throughput))))),
        {"type": "section", "block_id": SERIES_TABLE_BLOCK,
         "text": {"type": "mrkdwn", "text": "```" + series_table(series, words) + "```"}},
        context([legend(words)]),
        section(trend_line(series, words) + "\n" + serial_sentence(series.trend.serial, words, _below_zero(series))),
    ]
    contradictions = contradiction_notes(series, words)
    if contradictions:
        blocks.append(section("\n".join(contradictions)))
    asked = Asked.NONE if command.at is None else asked_size(series, int(command.at.value))
    if command.at is not None:  # asked for: loaded only then
        from bot.replies.forecast import forecast_blocks

        blocks += forecast_blocks(series, int(command.at.value), words)
    remarks = words.language_note() + [reading_note(note, words) for note in command.notes]
    if remarks:
        blocks.append(section(_fitted(remarks)))
    blocks.append(context([_books(asked, words)]))
    blocks.append(limits_block(recipient))
    return Reply(text=summary(series, words), blocks=blocks, locale=str(recipient))


class Asked(Enum):
    """Where the size a forecast is asked for (`at=`) stands among the sizes measured."""

    NONE = "none"  # no forecast asked for, or the size was measured: nothing is forecast
    BETWEEN = "between"  # between two sizes measured: interpolated
    BEYOND = "beyond"  # below the smallest or above the largest: extrapolated


def asked_size(series: Series, devices: int) -> Asked:
    """Where `devices` stands among the sizes `series` measured (a measured size shows its measurement)."""
    sizes = [point.devices for point in series.points]
    if devices in sizes:
        return Asked.NONE
    return Asked.BETWEEN if sizes[0] < devices < sizes[-1] else Asked.BEYOND


def _books(asked: Asked, words: Wording) -> str:
    """Where the explanations are, and which figures hold where: only the sizes measured, or a forecast too."""
    _ = words.gettext
    if asked is Asked.BETWEEN:
        return _(":books: To learn what scaling efficiency is, why it drops as a cluster grows, and how to improve it, "
                 "click *Explanations* under a result only you can see, or open dpscale's Home tab. The table's figures hold at "
                 "the sizes measured; only the forecast between them is interpolated.")
    if asked is Asked.BEYOND:
        return _(":books: To learn what scaling efficiency is, why it drops as a cluster grows, and how to improve it, "
                 "click *Explanations* under a result only you can see, or open dpscale's Home tab. The table's figures hold at "
                 "the sizes measured; only the forecast is extrapolated.")
    return _(":books: To learn what scaling efficiency is, why it drops as a cluster grows, and how to improve it, "
             "click *Explanations* under a result only you can see, or open dpscale's Home tab. These figures hold only at the "
             "sizes measured; nothing is extrapolated.")


def _below_zero(series: Series) -> bool:
    """Whether e is negative at some size: a speedup above the number of devices, the point above ideal."""
    return any(p.serial_fraction is not None and p.serial_fraction < 0 for p in series.points)


def build_series_error_reply(error: UserInputError, recipient: Recipient) -> Reply:
    """What is wrong with a series, with how to write one (for both formats after a `lang=` word)."""
    message = describe_error(error, recipient)
    usage = wording_for(recipient).gettext("A series: {example}").format(
        example=code("/dpscale " + series_example(wording_for(recipient), recipient.second_format is not None)))
    return Reply(text=message, blocks=[section(":warning: " + message), context([usage])], kind=ReplyKind.ERROR,
                 locale=str(recipient))


def series_table(series: Series, words: Wording) -> str:
    """The measured sizes as monospaced rows, each with a bar for E; a row the model cannot explain is marked."""
    falling = {b.devices for _, b in series.trend.falling_speedups}
    rows = [list(COLUMNS)] + [_row(point, words) for point in series.points]
    if falling:  # a fallen speedup marked on its own cell (`10× ↓`), the other speedups' `×` kept in line with it
        rows[0][SPEEDUP_COLUMN] += "  "
        for point, row in zip(series.points, rows[1:], strict=True):
            row[SPEEDUP_COLUMN] += " ↓" if point.devices in falling else "  "
    widths = [max(_width(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [_pad(row[i], width, left=i == BAR_COLUMN) for i, width in enumerate(widths)]
        lines.append("  ".join(cells).rstrip() + "".join(f" {mark}" for mark in row[len(COLUMNS):]))
    return "\n".join(lines)


def _width(cell: str) -> int:
    """Columns `cell` takes in a monospaced font: two for a wide character (`倍`), as East Asian fonts draw it."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in cell)


def _pad(cell: str, width: int, *, left: bool) -> str:
    padding = " " * (width - _width(cell))
    return cell + padding if left else padding + cell


def _row(point: Point, words: Wording) -> list[str]:
    efficiency = decimal(point.efficiency)
    serial = "—" if point.serial_fraction is None else words.number(decimal(point.serial_fraction), 4)
    row = [words.number(Decimal(point.devices), 0), words.number(decimal(point.actual)), words.number(decimal(point.ideal)),
           words.percent(efficiency), bar(efficiency), words.times(words.number(decimal(point.speedup))), serial]
    return row + ["⚠"] if point.above_ideal else row  # e below zero: after the e it marks


EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(efficiency: Decimal) -> str:
    """E as a bar of `BAR_WIDTH` cells, to an eighth of a cell: never empty for a working cluster, full at or
    above ideal.

    >>> bar(Decimal("0.9875")), bar(Decimal("0.5")), bar(Decimal("0.0001"))
    ('█████████▉', '█████░░░░░', '▏░░░░░░░░░')
    """
    eighths = min(BAR_WIDTH * 8, max(1 if efficiency > 0 else 0, int((efficiency * BAR_WIDTH * 8).to_integral_value())))
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(BAR_WIDTH, "░")


def legend(words: Wording) -> str:
    return words.gettext(
        "d: devices; A: measured cluster throughput; I: ideal throughput, d · v; E: efficiency, A / I; S: speedup, "
        "A / v; e: serial fraction (Karp–Flatt), (1/S − 1/d) / (1 − 1/d). A and I in samples/s."
    )


def trend_line(series: Series, words: Wording) -> str:
    """E at the smallest and the largest size measured, and its change per doubling of the cluster."""
    _ = words.gettext
    first, last = series.points[0], series.points[-1]
    points = series.trend.per_doubling * 100
    shown = words.number(abs(points), 2)
    values = {"low": words.number(Decimal(first.devices), 0), "high": words.number(Decimal(last.devices), 0),
              "first": words.percent(decimal(first.efficiency)), "last": words.percent(decimal(last.efficiency)),
              "points": shown}
    n = words.plural_count(shown)
    if shown == words.number(Decimal(0), 2):
        return _("From {low} to {high} devices, efficiency stays at {first}.").format(**values)
    if points < 0:
        return words.ngettext(
            "From {low} to {high} devices, efficiency falls from {first} to {last}: on average {points} percentage "
            "point per doubling of the cluster.",
            "From {low} to {high} devices, efficiency falls from {first} to {last}: on average {points} percentage "
            "points per doubling of the cluster.", n).format(**values)
    return words.ngettext(
        "From {low} to {high} devices, efficiency rises from {first} to {last}: on average {points} percentage "
        "point per doubling of the cluster.",
        "From {low} to {high} devices, efficiency rises from {first} to {last}: on average {points} percentage "
        "points per doubling of the cluster.", n).format(**values)


def serial_sentence(trend: SerialTrend, words: Wording, below_zero: bool = False) -> str:
    """What the serial fraction's course says about where the loss comes from, read as data-parallel training
    runs, the same batch on every device (`bot.model.series`: e·(d − 1) is the per-step overhead); `below_zero`:
    e is negative at a size measured above ideal, which no serial part explains."""
    _ = words.gettext
    if trend is SerialTrend.NONE and below_zero:
        return _(
            "The serial fraction e is below zero at the sizes marked ⚠, where the speedup exceeds the number of "
            "devices (superlinear), which no serial part or overhead can produce, and nothing in these measurements "
            "limits the speedup."
        )
    return SERIAL_SENTENCES[trend](_)


SERIAL_SENTENCES: dict[SerialTrend, Callable[[Callable[[str], str]], str]] = {  # each course of e, in `_`'s words
    SerialTrend.NONE: lambda _: _(
        "The serial fraction e is zero, or close to it, at the sizes measured: nothing in these measurements "
        "limits the speedup, which keeps pace with the cluster."
    ),
    SerialTrend.FLAT: lambda _: _(
        "The serial fraction e stays about the same as the cluster grows: with the same batch on every device, "
        "the overhead of each training step grows in proportion to the number of devices, as the latency of a "
        "ring all-reduce does. (With a fixed total batch, as Amdahl's law assumes, a constant e would instead "
        "mean a part of each step that is not parallelized.)"
    ),
    SerialTrend.RISING: lambda _: _(
        "The serial fraction e rises as the cluster grows: with the same batch on every device, the overhead of "
        "each training step grows faster than the number of devices, so each added device costs more overhead "
        "than the one before. Look for a link or switch that saturates, or traffic moving onto slower links "
        "between nodes."
    ),
    SerialTrend.FALLING: lambda _: _(
        "The serial fraction e falls as the cluster grows, and efficiency falls too: with the same batch on "
        "every device, the overhead of each training step grows, but more slowly than the number of devices, "
        "as it does when part of it stays fixed (the bandwidth part of an all-reduce barely grows with the "
        "cluster)."
    ),
    SerialTrend.FIXED: lambda _: _(
        "Efficiency stays about the same as the cluster grows: with the same batch on every device, each "
        "training step carries the same overhead whatever the cluster size — the mark of a well-tuned setup. The "
        "serial fraction e falls only because that overhead is spread over more devices."
    ),
    SerialTrend.SHRINKING: lambda _: _(
        "Efficiency rises as the cluster grows, so the overhead of each training step would have to shrink as "
        "devices are added: check that every run used the same batch per device and did the same work per sample, "
        "or look for superlinear effects, such as more combined memory or cache."
    ),
}


def contradiction_notes(series: Series, words: Wording) -> list[str]:
    """Measurements the model cannot explain, said plainly."""
    _ = words.gettext
    notes = []
    above = series.above_ideal
    if above:
        sizes = words.join([words.counted(words.number(Decimal(p.devices), 0)) for p in above])
        notes.append(words.ngettext(
            ":warning: At {sizes} device the measured throughput is above ideal (⚠): no device can beat its own "
            "single-device rate in this model. Check the single-device throughput, and that every run did the "
            "same work per sample.",
            ":warning: At {sizes} devices the measured throughput is above ideal (⚠): no device can beat its own "
            "single-device rate in this model. Check the single-device throughput, and that every run did the "
            "same work per sample.", int(above[-1].devices),
        ).format(sizes=sizes))
    if series.trend.falling_speedups:
        steps = words.join([_("{low} → {high} devices ({before} → {after})").format(
            low=words.number(Decimal(a.devices), 0), high=words.number(Decimal(b.devices), 0),
            before=words.times(words.number(decimal(a.speedup))), after=words.times(words.number(decimal(b.speedup))),
        ) for a, b in series.trend.falling_speedups])
        notes.append(_(
            ":warning: The speedup falls as devices are added (↓): {steps}. The added devices made the cluster "
            "slower: the extra communication or contention costs more than the added devices contribute. Look for a "
            "saturated link or switch."
        ).format(steps=steps))
    return notes


def summary(series: Series, words: Wording) -> str:
    """The notification text: E at the smallest and the largest size."""
    first, last = series.points[0], series.points[-1]
    return words.gettext("Scaling efficiency: {first} at {low} devices, {last} at {high} devices").format(
        first=words.percent(decimal(first.efficiency)), low=words.number(Decimal(first.devices), 0),
        last=words.percent(decimal(last.efficiency)), high=words.number(Decimal(last.devices), 0),
    )


def _fitted(lines: list[str]) -> str:
    """Lines of one section, as many as fit; the rest said to be there."""
    text = ""
    for index, line in enumerate(lines):
        if len(text) + len(line) + 1 > NOTES_LIMIT:
            return text + "\n…" + code(f"+{len(lines) - index}")
        text = f"{text}\n{line}" if text else line
    return text
