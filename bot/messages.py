"""Block Kit replies, built as pure functions of a result (or an error) and the reader's locale.

Nothing here talks to Slack. Every number is written with Babel in the locale passed in; every sentence goes
through the catalog of that locale's language. Text typed by the user is escaped before it is echoed, so that
`<!channel>` or `<@U…>` in a command can never ping anyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel import Locale

from bot.calculator import Quantity, Result
from bot.errors import ErrorCode, UserInputError
from bot.i18n import translations_for
from bot.numbers import ReadingKind, number_style, write_number, write_percent
from bot.parsing import Note

Block = dict[str, Any]
BAR_WIDTH = 20
EXAMPLE = (Decimal(64), Decimal(2000), Decimal("0.9"))


@dataclass(frozen=True)
class Reply:
    """A message ready to send: Block Kit blocks plus the plain `text` Slack shows in notifications."""

    text: str
    blocks: list[Block]
    kind: str = "result"  # "result", "help" or "error"

    @property
    def is_error(self) -> bool:
        return self.kind == "error"

    def payload(self, **extra: Any) -> dict[str, Any]:
        """The message as Slack's APIs take it (`text` and `blocks`), with any `extra` fields."""
        return {"text": self.text, "blocks": self.blocks, **extra}


# ---------------------------------------------------------------- small builders


def escape(text: str) -> str:
    """Neutralise Slack markup in user text: `<!channel>` becomes inert `&lt;!channel&gt;`."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def code(text: str) -> str:
    return "`" + escape(text).replace("`", "'") + "`"


def header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": text[:150], "emoji": True}}


def section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def fields(pairs: list[tuple[str, str]]) -> Block:
    return {
        "type": "section",
        "fields": [{"type": "mrkdwn", "text": f"*{label}*\n{value}"} for label, value in pairs],
    }


def context(texts: list[str]) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": t} for t in texts]}


DIVIDER: Block = {"type": "divider"}


class _Text:
    """Number formatting and translation bound to one locale."""

    def __init__(self, locale: Locale) -> None:
        self.locale = locale
        self.style = number_style(locale)
        self._ = translations_for(locale).gettext

    def num(self, value: Decimal, digits: int = 2) -> str:
        """`value` with up to `digits` decimals, or as many more as a value below one needs to show two
        significant digits (a throughput of 0.004 samples/s is not shown as 0)."""
        if value and abs(value) < 1:
            digits = max(digits, min(8, 1 - value.adjusted()))
        return write_number(value, self.style, digits)

    def pct(self, fraction: Decimal, digits: int = 2) -> str:
        return write_percent(fraction, self.style, digits)

    def rate(self, value: str) -> str:
        """An already written number with its unit: `115,200 samples/s`."""
        return self._("{value} samples/s").format(value=value)

    def times(self, value: str) -> str:
        """An already written number as a multiple: `57.6×`."""
        return self._("{value}×").format(value=value)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class _Figures:
    """Every number of a result, written once in the reader's locale."""

    devices: str
    throughput: str
    efficiency: str  # as a percentage
    efficiency_fraction: str
    ideal: str
    actual: str
    speedup: str
    devices_times: str
    loss: str
    loss_share: str
    target: str

    @classmethod
    def of(cls, result: Result, t: _Text) -> _Figures:
        devices = t.num(result.devices, 0)
        return cls(
            devices=devices,
            throughput=t.num(result.throughput),
            efficiency=t.pct(result.efficiency),
            efficiency_fraction=t.num(result.efficiency, 4),
            ideal=t.num(result.ideal),
            actual=t.num(result.actual),
            speedup=t.times(t.num(result.speedup)),
            devices_times=t.times(devices),
            loss=t.num(result.loss),
            loss_share=t.pct(result.loss / result.ideal),
            target=t.num(result.target) if result.target is not None else "",
        )


def build_result_reply(result: Result, notes: tuple[Note, ...], locale: Locale) -> Reply:
    """The full answer: headline, the numbers, a bar, the worked formula, notes, FAQ and limits."""
    t = _Text(locale)
    f = _Figures.of(result, t)
    blocks = [
        header(_headline(result, f, t)),
        fields(_result_fields(result, f, t)),
        section(_bar(result, f, t)),
        section(_formula(result, f, t)),
    ]
    remarks = [_reading_note(note, t) for note in notes] + _model_notes(result, f, t)
    if remarks:
        blocks.append(context(remarks))
    blocks.extend(explanation_blocks(locale))
    return Reply(text=_summary(f, t), blocks=blocks)


def _headline(result: Result, f: _Figures, t: _Text) -> str:
    _ = t._
    if result.solved is Quantity.EFFICIENCY:
        return _("Measured scaling efficiency: {efficiency}").format(efficiency=f.efficiency)
    if result.solved is Quantity.DEVICES:
        return _("Devices needed: {devices}").format(devices=f.devices)
    if result.solved is Quantity.THROUGHPUT:
        return _("Per-device throughput needed: {rate}").format(rate=t.rate(f.throughput))
    return _("Actual throughput: {rate}").format(rate=t.rate(f.actual))


def _summary(f: _Figures, t: _Text) -> str:
    return t._("{devices} devices × {rate} at {efficiency} efficiency: {actual} actual, {speedup} speedup").format(
        devices=f.devices,
        rate=t.rate(f.throughput),
        efficiency=f.efficiency,
        actual=t.rate(f.actual),
        speedup=f.speedup,
    )


def _result_fields(result: Result, f: _Figures, t: _Text) -> list[tuple[str, str]]:
    _ = t._
    labels = {
        Quantity.DEVICES: _("Devices"),
        Quantity.THROUGHPUT: _("Per-device throughput"),
        Quantity.EFFICIENCY: _("Scaling efficiency"),
        Quantity.ACTUAL: _("Actual throughput"),
    }
    labels[result.solved] = _("{label} (solved)").format(label=labels[result.solved])
    return [
        (labels[Quantity.DEVICES], f.devices),
        (labels[Quantity.THROUGHPUT], t.rate(f.throughput)),
        (labels[Quantity.EFFICIENCY], f.efficiency),
        (_("Ideal throughput"), t.rate(f.ideal)),
        (labels[Quantity.ACTUAL], t.rate(f.actual)),
        (_("Speedup over one device"), _("{speedup} (ideal {ideal})").format(speedup=f.speedup, ideal=f.devices_times)),
        (_("Lost to synchronization"), _("{rate} ({share} of ideal)").format(rate=t.rate(f.loss), share=f.loss_share)),
    ]


def _bar(result: Result, f: _Figures, t: _Text) -> str:
    filled = int((result.efficiency * BAR_WIDTH).to_integral_value())
    filled = min(BAR_WIDTH, max(1 if result.efficiency > 0 else 0, filled))
    bar = "█" * filled + "░" * (BAR_WIDTH - filled)
    return t._("`{bar}` actual is {share} of ideal").format(bar=bar, share=f.efficiency)


def _formula(result: Result, f: _Figures, t: _Text) -> str:
    d, v, e, ideal, actual = f.devices, f.throughput, f.efficiency_fraction, f.ideal, f.actual
    lines = {
        Quantity.ACTUAL: [
            f"I = d · v = {d} × {v} = {ideal}",
            f"A = I · E = {ideal} × {e} = {actual}",
        ],
        Quantity.EFFICIENCY: [
            f"I = d · v = {d} × {v} = {ideal}",
            f"E = A / I = {actual} / {ideal} = {e} ({f.efficiency})",
        ],
        Quantity.THROUGHPUT: [
            f"v = A / (d · E) = {actual} / ({d} × {e}) = {v}",
            f"I = d · v = {d} × {v} = {ideal}",
        ],
        Quantity.DEVICES: [
            f"d = ⌈A / (v · E)⌉ = ⌈{f.target or actual} / ({v} × {e})⌉ = {d}",
            f"I = d · v = {d} × {v} = {ideal}",
            f"A = I · E = {ideal} × {e} = {actual}",
        ],
    }[result.solved]
    lines.append(f"S = d · E = {d} × {e} = {f.speedup}")
    return t._("*The formula with your numbers*") + "\n```" + "\n".join(lines) + "```"


def _reading_note(note: Note, t: _Text) -> str:
    _ = t._
    value = _plain_number(note.reading.value, note.quantity, t)
    token = code(note.reading.token)
    if note.reading.kind is ReadingKind.AMBIGUOUS and note.reading.alternative is not None:
        other = note.reading.alternative
        other_text = _plain_number(other, note.quantity, t)
        return _(":mag: Read {token} as {value} in your number format. If you meant {other}, write it as {example}.").format(
            token=token, value=value, other=other_text, example=code(other_text))
    if note.reading.kind is ReadingKind.OTHER_CONVENTION:
        return _(":mag: {token} is not written in your number format; read it as {value}.").format(
            token=token, value=value)
    return _(":mag: Read {token} as a percentage: {value}. Write a fraction such as {example} or add a % sign to be explicit.").format(
        token=token, value=value, example=code(t.num(Decimal("0.9"), 2)))


def _plain_number(value: Decimal, quantity: Quantity, t: _Text) -> str:
    """A value as a note shows it: without grouping, so `2000` and `2` can never be mistaken for each other."""
    if quantity is Quantity.EFFICIENCY:
        return t.pct(value, 4)
    return write_number(value, t.style, 6, grouping=False)


def _model_notes(result: Result, f: _Figures, t: _Text) -> list[str]:
    _ = t._
    notes = []
    if result.devices == 1 and result.efficiency < 1:
        notes.append(_(":information_source: A single device has nothing to synchronize, so its real efficiency is 100%; the figure given only matters for a cluster."))
    if result.solved is Quantity.EFFICIENCY:
        notes.append(_(":information_source: This efficiency holds for {devices} devices. It usually drops as devices are added, so measure again at other sizes.").format(
            devices=f.devices))
    if result.solved is Quantity.DEVICES:
        notes.append(_(":information_source: Rounded up to whole devices, which deliver {rate}. This assumes the efficiency stays at {efficiency} at that size; it usually drops as a cluster grows.").format(
            rate=t.rate(f.actual), efficiency=f.efficiency))
    return notes


@lru_cache(maxsize=64)
def _explanations(locale: Locale) -> tuple[Block, ...]:
    t = _Text(locale)
    _ = t._
    return (
        DIVIDER,
        section(_("*What is scaling efficiency?*") + "\n" + _(
            "It is the share of ideal throughput that a cluster really reaches, compared with every added device "
            "contributing its full single-device rate. At {efficiency}, {devices} devices work like {speedup} "
            "perfect ones. It folds every imperfection of parallel training (gradient exchange, waiting at "
            "synchronization points, uneven work) into one fraction between zero and one."
        ).format(efficiency=t.pct(EXAMPLE[2]), devices=t.num(EXAMPLE[0], 0), speedup=t.num(EXAMPLE[0] * EXAMPLE[2]))),
        section(_("*Why is scaling not linear?*") + "\n" + _(
            "Every optimizer step ends with an all-reduce that exchanges and averages gradients across all devices. "
            "That communication grows with the cluster while the useful compute per device stays the same. "
            "Add synchronization barriers and stragglers that hold everyone up, and each extra device contributes "
            "less than the first one did."
        )),
        section(_("*How can I improve it?*") + "\n" + _(
            "Do more compute between communications (larger per-device batches or gradient accumulation) so the "
            "all-reduce cost is spread over more work; use faster interconnects or topology-aware collective "
            "algorithms; overlap gradient communication with the backward pass; and balance data shards to avoid "
            "stragglers. An efficiency that stays flat as you add devices is the mark of a well-tuned setup."
        )),
        context([_(
            ":warning: *Limits.* A first-order model: every loss is folded into the one efficiency you give. It does "
            "not predict that value from interconnect bandwidth, model size or batch size, and efficiency measured "
            "at one cluster size does not carry over to another. Pure data parallelism is assumed; pipeline or "
            "tensor parallelism have overheads of their own. Measure efficiency on your own cluster rather than "
            "assuming a number."
        )]),
    )


def explanation_blocks(locale: Locale) -> list[Block]:
    """The FAQ and the model's limits: the same for every reply in a locale, so built once per locale."""
    return list(_explanations(locale))


# ---------------------------------------------------------------- help and errors


def usage_line(locale: Locale) -> str:
    t = _Text(locale)
    d, v, e = EXAMPLE
    return t._("Usage: {usage}, for example {example}").format(
        usage=code("/dpscale " + t._("DEVICES THROUGHPUT EFFICIENCY")),
        example=code(f"/dpscale {t.num(d, 0)} {t.num(v)} {t.pct(e)}"),
    )


def build_help_reply(locale: Locale) -> Reply:
    """How to use the command, with every example written in the reader's own number format."""
    text, blocks = _help(locale)
    return Reply(text=text, blocks=list(blocks), kind="help")


@lru_cache(maxsize=64)
def _help(locale: Locale) -> tuple[str, tuple[Block, ...]]:
    """The help depends on nothing but the locale, so it is built once per locale."""
    t = _Text(locale)
    _ = t._
    d, v, e = EXAMPLE
    actual = d * v * e
    n = t.num
    examples = "\n".join([
        f"• {code(f'/dpscale {n(d, 0)} {n(v)} {t.pct(e)}')} " + _("cluster throughput and speedup"),
        f"• {code(f'/dpscale {n(d, 0)} {n(v)} {n(e)}')} " + _("the same, with the efficiency as a fraction"),
        f"• {code(f'/dpscale {n(d, 0)} {n(v)} actual={n(actual)}')} " + _("your measured efficiency"),
        f"• {code(f'/dpscale throughput={n(v)} efficiency={t.pct(e)} actual={n(Decimal(200000))}')} "
        + _("devices needed for a target"),
        f"• {code(f'/dpscale devices={n(d, 0)} efficiency={t.pct(e)} actual={n(actual)}')} "
        + _("per-device throughput needed"),
        f"• {code(f'/dpscale {n(d, 0)} {n(v)} {t.pct(e)} lang=de')} " + _("answer in another language and number format"),
    ])
    blocks = [
        header(_("How to use dpscale")),
        section(_(
            "Estimates what a data-parallel cluster really delivers: ideal throughput I = d · v, actual "
            "throughput A = I · E and speedup S = d · E, from the number of devices d, the throughput v of one "
            "device in samples/s, and the scaling efficiency E."
        )),
        section(usage_line(locale) + "\n" + _(
            "Give any three of devices, throughput, efficiency and actual (cluster throughput) with "
            "{keys}; the fourth is solved."
        ).format(keys=code("devices= throughput= efficiency= actual="))),
        section(_("*Examples*") + "\n" + examples),
        context([_(
            "Numbers are read in your Slack language's format ({name}): two thousand is written {thousands}, "
            "nine tenths {fraction}. Efficiency is a percentage ({percent}) or a fraction; k, M and G stand for "
            "thousand, million and billion. Add {lang} to pick another language and number format."
        ).format(
            name=escape(locale.get_display_name(locale) or str(locale)),
            thousands=code(n(Decimal(2000))),
            fraction=code(n(Decimal("0.9"))),
            percent=code(t.pct(e)),
            lang=code("lang=en-US"),
        )]),
    ]
    return _("How to use dpscale"), tuple(blocks)


def build_error_reply(error: UserInputError, locale: Locale) -> Reply:
    """A localized message that names what was wrong and how to write it, with the usage line."""
    message = describe_error(error, locale)
    blocks = [section(":warning: " + message), context([usage_line(locale)])]
    return Reply(text=message, blocks=blocks, kind="error")


def build_failure_reply(locale: Locale) -> Reply:
    """The short apology for an unexpected failure: it never says what the exception was."""
    message = _Text(locale)._("Sorry, something went wrong on our side. Please try again in a moment.")
    return Reply(text=message, blocks=[section(":warning: " + message)], kind="error")


def describe_error(error: UserInputError, locale: Locale) -> str:
    t = _Text(locale)
    _ = t._
    token = code(error.token) if error.token is not None else ""
    quantity = _quantity_name(error.quantity, t)
    messages = {
        ErrorCode.TOO_LONG: _("That is too long: a command may have at most {limit} characters."),
        ErrorCode.UNKNOWN_WORD: _("I don't know {token}. Use numbers, or the words {keys}."),
        ErrorCode.NOT_A_NUMBER: _("{token} is not a number I can read. Write numbers like {example}."),
        ErrorCode.AMBIGUOUS_NUMBER: _("{token} could mean {options}. Write it as one of those."),
        ErrorCode.AMBIGUOUS_GROUPING: _("In {token} I can't tell where one number ends and the next begins. Write numbers without spaces inside them, like {example}."),
        ErrorCode.UNKNOWN_SUFFIX: _("{token} has a suffix I don't know; use k (thousand), M (million) or G (billion)."),
        ErrorCode.TOO_MANY_NUMBERS: _("Too many numbers: {token} is one more than devices, throughput and efficiency."),
        ErrorCode.DUPLICATE_QUANTITY: _("{quantity} is given twice ({token}). Give each value once."),
        ErrorCode.MISSING_VALUE: _("{token} has no value after it; write it like {example}."),
        ErrorCode.NOT_ENOUGH_QUANTITIES: _("Give three of devices, throughput, efficiency and actual; the fourth is solved."),
        ErrorCode.TOO_MANY_QUANTITIES: _("Give only three of devices, throughput, efficiency and actual; the fourth is solved."),
        ErrorCode.DEVICES_NOT_WHOLE: _("Devices must be a whole number, such as {example}."),
        ErrorCode.OUT_OF_RANGE: _("{quantity} must be from {low} to {high}.")
        if error.low not in (None, "0")
        else _("{quantity} must be more than 0 and at most {high}."),
        ErrorCode.PERCENT_NOT_ALLOWED: _("{token}: only the efficiency can be a percentage; {quantity} is a plain number."),
        ErrorCode.ACTUAL_ABOVE_IDEAL: _("The actual throughput cannot exceed the ideal one ({high}): efficiency would be above 100%."),
        ErrorCode.UNKNOWN_LOCALE: _("{token} is not a language I know; use a tag like {example}."),
    }
    message = messages[error.code].format(
        token=token,
        quantity=quantity,
        limit=error.high or "",
        keys=code("devices= throughput= efficiency= actual= lang="),
        example=_error_example(error, t),
        options=_("{first} or {second}").format(
            first=code(error.suggestions[0]), second=code(error.suggestions[-1])) if error.suggestions else "",
        low=_bound(error.quantity, error.low, t),
        high=_bound(error.quantity, error.high, t),
    )
    if error.code in _RULES_WITHOUT_TOKEN and error.token is not None:
        return f"{token} — {message}"
    return message


_RULES_WITHOUT_TOKEN = frozenset({ErrorCode.OUT_OF_RANGE, ErrorCode.DEVICES_NOT_WHOLE, ErrorCode.ACTUAL_ABOVE_IDEAL})


def _error_example(error: UserInputError, t: _Text) -> str:
    if error.code is ErrorCode.UNKNOWN_LOCALE:
        return code("de-DE")
    if error.code is ErrorCode.DEVICES_NOT_WHOLE:
        return code(t.num(EXAMPLE[0], 0))
    if error.code is ErrorCode.MISSING_VALUE and error.quantity:
        key = (error.token or "").rstrip("=:")
        return code(f"{key}={t.num(EXAMPLE[1])}")
    return code(t.num(Decimal("2000"))) + ", " + code(t.num(Decimal("0.9")))


def _bound(quantity: str | None, value: str | None, t: _Text) -> str:
    if value is None:
        return ""
    number = Decimal(value)
    if quantity == Quantity.EFFICIENCY.value:
        return t.pct(number, 2)
    return t.num(number, 2)


def _quantity_name(quantity: str | None, t: _Text) -> str:
    _ = t._
    names = {
        Quantity.DEVICES.value: _("The number of devices"),
        Quantity.THROUGHPUT.value: _("The per-device throughput"),
        Quantity.EFFICIENCY.value: _("The scaling efficiency"),
        Quantity.ACTUAL.value: _("The actual throughput"),
    }
    return names.get(quantity or "", _("The value"))


# ---------------------------------------------------------------- plain text


def render_plain_text(reply: Reply) -> str:
    """The reply's blocks as readable text: the same content the Slack message shows."""
    out: list[str] = []
    for block in reply.blocks:
        kind = block["type"]
        if kind == "header":
            title = block["text"]["text"]
            out.append(title + "\n" + "=" * len(title))
        elif kind == "divider":
            out.append("—" * 40)
        elif kind == "section" and "fields" in block:
            out.extend(_plain(f["text"]).replace("\n", ": ", 1) for f in block["fields"])
        elif kind == "section":
            out.append(_plain(block["text"]["text"]))
        elif kind == "context":
            out.extend(_plain(e["text"]) for e in block["elements"])
        out.append("")
    return "\n".join(out).strip() + "\n"


def _plain(mrkdwn: str) -> str:
    text = mrkdwn.replace("```", "\n").replace("*", "").replace("`", "")
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


# ---------------------------------------------------------------- interactive parts


FORM_BLOCK_IDS = {q: f"field_{q.value}" for q in Quantity}
FORM_ACTION_ID = "value"


def build_result_actions(locale: Locale, share_value: str, edit_value: str, share_id: str, edit_id: str) -> Block:
    """The buttons under a private result: share it in the channel, or edit its numbers in a form."""
    _ = _Text(locale)._
    return {
        "type": "actions",
        "elements": [
            {"type": "button", "action_id": share_id, "value": share_value, "style": "primary",
             "text": {"type": "plain_text", "text": _("Share in channel")}},
            {"type": "button", "action_id": edit_id, "value": edit_value,
             "text": {"type": "plain_text", "text": _("Edit")}},
        ],
    }


def build_shared_reply(reply: Reply, user_id: str, locale: Locale) -> Reply:
    """The result as shown to the whole channel: no buttons, and who shared it."""
    note = _Text(locale)._("Shared by {user}").format(user=f"<@{user_id}>")
    blocks = [block for block in reply.blocks if block["type"] != "actions"] + [context([note])]
    return Reply(text=reply.text, blocks=blocks)


def build_share_failed_reply(locale: Locale) -> Reply:
    message = _Text(locale)._("This result could not be shared in the channel (the button may have expired). Run the command again to share a new copy.")
    return Reply(text=message, blocks=[section(":warning: " + message)], kind="error")


def build_dm_fallback_note(locale: Locale) -> Block:
    return context([_Text(locale)._(":information_source: I could not post in the conversation where you ran the command, so your result is here.")])


def build_form_view(locale: Locale, metadata: str, callback_id: str, initial: dict[Quantity, str] | None = None) -> dict[str, Any]:
    """A modal with one field per quantity: fill in any three and the fourth is solved."""
    t = _Text(locale)
    _ = t._
    d, v, e = EXAMPLE
    hints = {
        Quantity.DEVICES: (_("Devices"), t.num(d, 0)),
        Quantity.THROUGHPUT: (_("Per-device throughput (samples/s)"), t.num(v)),
        Quantity.EFFICIENCY: (_("Scaling efficiency"), t.pct(e) + " · " + t.num(e)),
        Quantity.ACTUAL: (_("Actual cluster throughput (samples/s)"), t.num(d * v * e)),
    }
    blocks: list[Block] = [section(_("Fill in any three fields; dpscale solves the fourth. Leave *actual cluster throughput* empty to see what your cluster delivers."))]
    for quantity, (label, example) in hints.items():
        element: dict[str, Any] = {
            "type": "plain_text_input",
            "action_id": FORM_ACTION_ID,
            "max_length": 40,
            "placeholder": {"type": "plain_text", "text": _("e.g. {example}").format(example=example)[:150]},
        }
        if initial and initial.get(quantity):
            element["initial_value"] = initial[quantity]
        blocks.append({
            "type": "input",
            "block_id": FORM_BLOCK_IDS[quantity],
            "optional": True,
            "label": {"type": "plain_text", "text": label},
            "element": element,
        })
    blocks.append(context([_("Numbers are read in your format ({name}): for example {example}.").format(
        name=escape(locale.get_display_name(locale) or str(locale)), example=code(t.num(Decimal(2000)) + " · " + t.num(Decimal("0.9"))))]))
    return {
        "type": "modal",
        "callback_id": callback_id,
        "private_metadata": metadata,
        "title": {"type": "plain_text", "text": _("Data-parallel scaling")[:24]},
        "submit": {"type": "plain_text", "text": _("Calculate")[:24]},
        "close": {"type": "plain_text", "text": _("Cancel")[:24]},
        "blocks": blocks,
    }


def form_errors(errors: dict[Quantity, UserInputError], locale: Locale) -> dict[str, str]:
    """`response_action: errors` for a form: a localized message under each field that is wrong."""
    return {FORM_BLOCK_IDS[q]: describe_error(e, locale)[:2000] for q, e in errors.items()}


def form_initial_values(values: dict[Quantity, Decimal], locale: Locale) -> dict[Quantity, str]:
    """A result's given values, written back in the user's format to pre-fill the form."""
    t = _Text(locale)
    return {
        q: t.pct(value, 4) if q is Quantity.EFFICIENCY else t.num(value, 6)
        for q, value in values.items()
    }


def build_home_view(locale: Locale) -> dict[str, Any]:
    """The App Home tab: what dpscale computes, how to ask, and the explanations, in the viewer's locale."""
    _, help_blocks = _help(locale)
    intro = section(_Text(locale)._("Type `/dpscale` with no numbers to open a form, or mention @dpscale in a channel to answer in a thread."))
    return {"type": "home", "blocks": [*help_blocks, intro, *explanation_blocks(locale)]}
