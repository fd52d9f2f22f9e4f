"""The help, the usage line, and the explanations (FAQ and limits) that every result carries.

All of it depends on the locale alone, so each is built once per locale and reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from bot.model.calculator import Quantity
from bot.reader.keywords import TARGET_KEYS, word_list
from bot.reader.languages import LANGUAGES
from bot.reader.recipient import Recipient, RecipientLike, as_recipient
from bot.replies.blocks import DIVIDER, Block, Reply, ReplyKind, code, context, escape, header, section
from bot.replies.wording import EXAMPLE, Wording, wording_for

# the series the help and the errors show: cluster sizes and their throughputs, one device at 2,000 samples/s
SERIES_EXAMPLE = {8: Decimal(15800), 16: Decimal(31000), 64: Decimal(115200)}
# the word each language's table (`bot.reader.languages`, actual throughput) has for a target throughput


@lru_cache(maxsize=64)
def usage_line(recipient: Recipient, ungrouped: bool = False) -> str:
    """How to write the command, with an example; `ungrouped` where it is read in two formats (after `lang=`), so
    that the example reads alike in both (`2000`: `2.000` would be asked about)."""
    words = wording_for(recipient)
    d, v, e = EXAMPLE
    throughput = words.plain(v) if ungrouped else words.number(v)
    return words.gettext("Usage: {usage}, for example {example}").format(
        usage=code("/dpscale " + words.gettext("DEVICES THROUGHPUT EFFICIENCY")),
        example=code(f"/dpscale {words.number(d, 0)} {throughput} {words.percent(e)}"),
    )


def build_help_reply(recipient: RecipientLike) -> Reply:
    """How to use the command, with every example written in the reader's own number format; or, where a `lang=`
    word chose a format that reads numbers otherwise than the user's own, written so that both read it alike."""
    recipient = as_recipient(recipient)
    text, blocks = help_blocks(recipient, recipient.second_format)
    return Reply(text=text, blocks=list(blocks), kind=ReplyKind.HELP, locale=str(recipient))


@lru_cache(maxsize=64)
def help_blocks(recipient: Recipient, own: Recipient | None = None) -> tuple[str, tuple[Block, ...]]:
    """The help's notification text and blocks (App Home shows the same blocks); `own` as for `build_help_reply`."""
    words = wording_for(recipient)
    _ = words.gettext
    blocks = [
        header(_("How to use dpscale")),
        section(_(
            "Estimates what a data-parallel cluster really delivers: ideal throughput I = d · v, actual "
            "throughput A = I · E, and speedup S = d · E, from the number of devices d, the throughput v of one "
            "device in samples/s, and the scaling efficiency E."
        )),
        section(usage_line(recipient, own is not None) + "\n" + _(
            "Or name any three values with {keys} (actual is the cluster's throughput), and dpscale works out "
            "the fourth."
        ).format(keys=code(words.key_list()))),
        section(_("*Examples*") + "\n" + _examples(words, own is not None)),
        context([*words.language_note(), _reading_rules(words) if own is None else two_formats_rule(words, own)]),
    ]
    return _("How to use dpscale"), tuple(blocks)


def _examples(words: Wording, ungrouped: bool) -> str:
    _, n, pct = words.gettext, words.plain if ungrouped else words.number, words.percent
    d, v, e = EXAMPLE
    actual = d * v * e
    dk, vk, ek, ak, lk = (words.key(q) for q in (*Quantity, None))
    tk = target_key(words)
    lines = [
        (f"/dpscale {n(d, 0)} {n(v)} {pct(e)}", _("cluster throughput and speedup")),
        (f"/dpscale {n(d, 0)} {n(v)} {n(e)}", _("the same, with the efficiency as a fraction")),
        (f"/dpscale {n(d, 0)} {n(v)} {ak}{n(actual)}", _("your measured efficiency")),
        (f"/dpscale {vk}{n(v)} {ek}{pct(e)} {tk}{n(Decimal(200000))}", _("devices needed for a target throughput")),
        (f"/dpscale {dk}{n(d, 0)} {ek}{pct(e)} {ak}{n(actual)}", _("per-device throughput needed")),
        (f"/dpscale {series_example(words, ungrouped)}", _("efficiency at several cluster sizes, and its trend")),
        ("/dpscale " + series_word(words), _("a form for such a series, one measurement per line")),
        # written so your format and the other's read it alike: `lang=` numbers read differently are asked about
        (f"/dpscale {n(d, 0)} {words.plain(v)} {pct(e)} {lk}{other_language(words)}",
         _("answer in another language and number format")),
    ]
    line = _("{example} — {meaning}")  # an example and what it does, apart as the language sets them apart
    return "\n".join("• " + line.format(example=code(example), meaning=meaning) for example, meaning in lines)


def build_series_form_note(recipient: Recipient, word: str) -> Reply:
    """What `/dpscale series` (`word`, in any language) does where no form can open (the command-line tool): in
    Slack it opens a form; here the series is written in the command."""
    words = wording_for(recipient)
    text = words.gettext(
        "In Slack, {command} opens a form for a measurement series. Here, write the series in the command "
        "itself, such as {example}."
    ).format(command=code("/dpscale " + word), example=code("/dpscale " + series_example(words)))
    return Reply(text=text, blocks=[section(text)], kind=ReplyKind.HELP, locale=str(recipient))


def series_word(words: Wording) -> str:
    """The word that opens the series form, in the reader's language (`bot.reader.series_syntax.SERIES_WORDS` reads
    every language's): the first its speakers would type."""
    return LANGUAGES[word_list(str(words.language))].series[0]


def target_key(words: Wording) -> str:
    """The key the help's target example shows, with its `=`: the word the reader's language has for a target
    throughput where it has one (`target=`, `ziel=`, `cible=`: German `ist=`, the measured value, is the opposite of
    a target), else its actual-throughput key (`実効=`). Both are read as the cluster's throughput."""
    word = TARGET_KEYS.get(word_list(str(words.language)))
    return word + "=" if word else words.key(Quantity.ACTUAL)


def command_words(words: Wording) -> str:
    """Every word a command may hold besides numbers, as the reader's language shows it: the four values, the
    target, a forecast, the language and the number format, and the series (`geräte= … ziel= bei= sprache= format=
    messreihe`), so that an error lists the words the help uses."""
    keys = [words.key(quantity) for quantity in Quantity]
    target = target_key(words)
    keys += [target] if target not in keys else []
    return " ".join([*keys, forecast_word(words) + "=", words.key(None), "format=", series_word(words)])


def forecast_word(words: Wording) -> str:
    """The word that asks a series for a forecast (`at=128`, `bei=128`, `予測=128`), in the reader's language
    (`bot.reader.keywords.FORECAST` reads every language's): the first its speakers would type, or the catalog's
    own word where its region says it otherwise (Latin American *pronóstico*, where Spain says *previsión*)."""
    return FORECAST_SHOWN.get(str(words.language)) or LANGUAGES[word_list(str(words.language))].forecast[0]


FORECAST_SHOWN = {"es_419": "pronóstico"}  # a catalog whose region's word is not its word list's first


def other_language(words: Wording) -> str:
    """The `lang=` example of the help: a language other than the reader's own (German, or English for a German
    reader), so that the example for *another* language never names the reader's."""
    return "de" if words.language.language != "de" else "en"


def series_example(words: Wording, ungrouped: bool = False) -> str:
    """A measurement series (`bot.reader.series_syntax`) in the reader's format: `v=2,000 8=15,800 16=31,000 64=115,200`
    (ungrouped where two formats read the command, after `lang=`)."""
    number = words.plain if ungrouped else words.number
    return " ".join(["v=" + number(Decimal(2000)),
                     *(f"{words.number(Decimal(d), 0)}={number(a)}" for d, a in SERIES_EXAMPLE.items())])


def _reading_rules(words: Wording) -> str:
    if words.recipient.is_unknown:
        return unknown_format_rule(words)
    rules = words.gettext(
        "Numbers are read in the {name} format you chose: two thousand is {thousands}, nine-tenths {fraction}. "
        "Efficiency is a percentage ({percent}) or a fraction; k, M, and G stand for thousand, million, and "
        "billion. For another language and number format, add a language code, such as {lang}."
    ) if words.chosen_format else words.gettext(
        "Numbers are read the way your Slack language, {name}, writes them: two thousand is {thousands}, "
        "nine-tenths {fraction}. Efficiency is a percentage ({percent}) or a fraction; k, M, and G stand for "
        "thousand, million, and billion. For another language and number format, add a language code, such as "
        "{lang}."
    )
    return rules.format(
        name=escape(words.locale_name),
        thousands=code(words.number(Decimal(2000))),
        fraction=code(words.number(Decimal("0.9"))),
        percent=code(words.percent(EXAMPLE[2])),
        lang=code(words.key(None) + other_language(words)),
    )


def two_formats_rule(words: Wording, own: Recipient) -> str:
    """How numbers are read after a `lang=` word whose format reads them otherwise than the user's `own`."""
    example = words.alternatives([code(words.plain(value)) for value in (Decimal(2000), Decimal("0.9"))])
    return words.gettext(
        "Numbers are read in the {name} format and in your own, {own}; I ask about any number the two read "
        "differently. Numbers written like {example} read the same in both."
    ).format(name=escape(words.locale_name), own=escape(words.format_name(own)), example=example)


def unknown_format_rule(words: Wording) -> str:
    """What reading in the unknown format means, for a reader whose Slack locale is not known yet."""
    return words.gettext(
        "Slack hasn't told me your language's number format yet, so I ask about numbers that Slack's languages "
        "read differently, such as {example}, instead of guessing. Numbers that read the same in every language, "
        "such as {thousands} and {fraction}, work as usual."
    ).format(
        example=code("2.000"),
        thousands=code(words.number(Decimal(2000))),
        fraction=code(words.number(Decimal("0.9"))),
    )


@dataclass(frozen=True)
class FaqExample:
    """A result's own figures, as written in its reply, for the FAQ's example: at `efficiency`, `devices` work
    like `speedup` perfect ones (the noun after `speedup` takes its plural: French `1,9 accélérateur parfait`)."""

    efficiency: str
    devices: str
    speedup: str
    count: int  # the number of devices, for the plural form


def explanation_blocks(recipient: Recipient, example: FaqExample | None = None) -> list[Block]:
    """The FAQ and the model's limits. Under a result the FAQ's example is that result's own figures; elsewhere
    (App Home, the Explanations button) it is the source document's, said to be an example."""
    words = wording_for(recipient)
    what = words.gettext("*What is scaling efficiency?*") + "\n" + words.sentences(
        _what_is_efficiency(words), *faq_example(words, example))
    return [DIVIDER, section(what), *_explanations(recipient)]


def faq_example(words: Wording, example: FaqExample | None) -> list[str]:
    """What the efficiency means in devices: the reader's own result (none for one device, which has nothing to
    compare), or the source document's example, said to be one."""
    if example is None:
        d, _v, e = EXAMPLE
        return [words.gettext("For example, at {efficiency}, {devices} devices do the work of {speedup} perfect "
                              "ones.").format(efficiency=words.percent(e), devices=words.number(d, 0),
                                              speedup=words.number(d * e))]
    if example.count == 1:
        return []
    if example.speedup == _one(words):  # a lone 1 is a word: "wie ein perfektes", "a single"
        return [words.gettext("With your numbers: at {efficiency}, {devices} devices do the work of a single perfect "
                              "one.").format(efficiency=example.efficiency, devices=example.devices)]
    # two or more devices, a plural in every language: the count is the speedup's, as the noun after it inflects
    return [words.ngettext(
        "With your numbers: at {efficiency}, {devices} devices do the work of {speedup} perfect one.",
        "With your numbers: at {efficiency}, {devices} devices do the work of {speedup} perfect ones.",
        words.plural_count(example.speedup),
    ).format(efficiency=example.efficiency, devices=example.devices, speedup=example.speedup)]


@lru_cache(maxsize=64)  # per Wording, one per recipient
def _one(words: Wording) -> str:
    """1 as the locale writes it (`1`, `١`)."""
    return words.number(Decimal(1))


def limits_block(recipient: Recipient) -> Block:
    """The model's limits alone (a series shows them without the FAQ above them)."""
    return _explanations(recipient)[-1]


def _what_is_efficiency(words: Wording) -> str:
    return words.gettext(
        "It is the share of ideal throughput (every device contributing its full single-device rate) that a "
        "cluster actually reaches. It folds every imperfection of parallel training (gradient "
        "exchange, waiting at synchronization points, uneven work) into one fraction between zero and one."
    )


@lru_cache(maxsize=64)
def _explanations(recipient: Recipient) -> tuple[Block, ...]:
    """The FAQ's other answers and the limits: the same for every reply to a recipient, so built once for each."""
    words = wording_for(recipient)
    _ = words.gettext
    return (
        section(_("*Why is scaling not linear?*") + "\n" + _(
            "Before every optimizer step, an all-reduce exchanges gradients across all devices and averages them. "
            "That communication takes longer as the cluster grows (more communication rounds, and more traffic "
            "over the slower links between nodes), while the useful compute per device stays the same. "
            "Add synchronization barriers and stragglers that hold everyone up, and each extra device contributes "
            "less than the first one did."
        )),
        section(_("*How can I improve it?*") + "\n" + _(
            "Do more computation between gradient exchanges (larger per-device batches or gradient accumulation) so the "
            "all-reduce cost is spread over more work; use faster interconnects or topology-aware collective "
            "algorithms; overlap gradient communication with the backward pass; and balance data shards to avoid "
            "stragglers. An efficiency that stays flat as you add devices is the mark of a well-tuned setup."
        )),
        context([_(
            ":warning: *Limits.* A first-order model: every source of overhead is folded into a single efficiency, "
            "whether you give it or dpscale works it out. It does not predict that value from interconnect bandwidth, model size, or "
            "batch size, and efficiency measured at one cluster size does not carry over to another. Pure data parallelism is assumed; pipeline and "
            "tensor parallelism have overheads of their own. Measure efficiency on your own cluster rather than "
            "assuming a number."
        )]),
    )
