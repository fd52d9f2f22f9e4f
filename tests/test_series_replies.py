"""What a series looks like to its reader: the table, the trend and what the course of e says of the overhead (read
as data-parallel training runs), what contradicts the model, and its errors, in every language and inside Block
Kit's limits."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from blockkit import MAX_VIEW_BLOCKS, assert_no_broadcast, assert_within_limits
from bot.engine import answer
from bot.model.series import SerialTrend
from bot.reader.numbers import SLACK_LOCALES, resolve_locale
from bot.reader.recipient import Recipient
from bot.replies import ReplyKind, render_plain_text
from bot.replies.series import SERIAL_SENTENCES
from bot.replies.wording import Wording
from bot.slack.series_form import explanations_reply, series_form_view
from bot.slack.state import FormMetadata, ResultState
from bot.slack.views import shared_reply, with_buttons

SEED = "v=2000 8=15800 16=31000 64=115200"
TWELVE = "v=2000 " + " ".join(f"{2 ** k}={int(2000 * 2 ** k * (1 - k / 40))}" for k in range(1, 13))


def texts(reply) -> str:
    """The texts of the reply's sections and contexts, as Slack is given them."""
    return "\n".join([b["text"]["text"] for b in reply.blocks if b["type"] == "section"]
                     + [e["text"] for b in reply.blocks if b["type"] == "context" for e in b["elements"]])


def table(reply) -> str:
    return next(b["text"]["text"] for b in reply.blocks if b.get("block_id") == "dpscale_series_table")


def test_the_table_shows_every_size_with_its_figures_and_a_bar():
    reply = answer(SEED, resolve_locale("en-US"))
    assert reply.kind is ReplyKind.RESULT
    lines = table(reply).strip("`").splitlines()
    assert lines[0].split() == ["d", "A", "I", "E", "S", "e"]
    assert lines[1].split() == ["8", "15,800", "16,000", "98.75%", "█████████▉", "7.9×", "0.0018"]
    assert lines[2].split() == ["16", "31,000", "32,000", "96.88%", "█████████▊", "15.5×", "0.0022"]
    assert lines[3].split() == ["64", "115,200", "128,000", "90%", "█████████░", "57.6×", "0.0018"]
    text = str(reply.blocks)
    assert "From 8 to 64 devices, efficiency falls from 98.75% to 90%: on average 2.92 percentage points per " \
        "doubling" in text
    assert "The serial fraction e stays about the same as the cluster grows: with the same batch on every device, " \
        "the overhead of each training step grows in proportion to the number of devices" in text
    assert "*What is scaling efficiency?*" not in text  # the FAQ is a click away, not under the table
    assert "*Limits.*" in text
    assert reply.text == "Scaling efficiency: 98.75% at 8 devices, 90% at 64 devices"


def test_a_rising_serial_fraction_says_the_overhead_grows_faster_than_the_cluster():
    text = str(answer("v=1000 2=1900 4=3400 8=5000", resolve_locale("en-US")).blocks)
    assert ("The serial fraction e rises as the cluster grows: with the same batch on every device, the overhead of "
            "each training step grows faster than the number of devices") in text


@pytest.mark.parametrize("text", ["v=2000 8=16000 16=32000 32=64000", "v=2000 8=15990 64=127500"])
def test_a_cluster_that_scales_linearly_is_told_nothing_limits_it_not_a_fixed_serial_part(text):
    said = str(answer(text, resolve_locale("en-US")).blocks)
    assert "The serial fraction e is zero, or close to it, at the sizes measured: nothing in these measurements" in said
    assert "serial part" not in said and "overhead of each training step" not in said


# what each course of e says, in every language: (a series, its course, the sentence's msgid)
COURSES = [
    ("v=2000 8=15800 16=31000 64=115200", "flat", SERIAL_SENTENCES[SerialTrend.FLAT](str)),
    ("v=2000 8=15800 16=31000", "rising", SERIAL_SENTENCES[SerialTrend.RISING](str)),
    ("v=2000 8=15800 16=31000 32=59000 64=108000", "rising", SERIAL_SENTENCES[SerialTrend.RISING](str)),
    ("v=1000 8=7600 16=14720 32=28480", "falling", SERIAL_SENTENCES[SerialTrend.FALLING](str)),
    ("v=2000 8=15000 16=30000 32=60000", "fixed", SERIAL_SENTENCES[SerialTrend.FIXED](str)),
    ("v=2000 8=15000 32=60000", "fixed", SERIAL_SENTENCES[SerialTrend.FIXED](str)),
    ("v=1000 2=1500 4=3600", "shrinking", SERIAL_SENTENCES[SerialTrend.SHRINKING](str)),
    ("v=2000 8=16000 16=32000", "none", SERIAL_SENTENCES[SerialTrend.NONE](str)),
]
DATA_LOADING = ("data loading", "Laden der Daten", "carga de datos", "chargement des données", "caricamento dei dati",
                "carregamento de dados", "データの読み込み", "데이터 로딩", "数据加载", "資料載入")


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_each_course_of_e_is_read_as_data_parallel_training_runs_in_every_language(tag):
    """Each course of e gets its own sentence, translated, and no other's: a constant e is overhead in proportion
    to the cluster with the same batch per device (not "a fixed serial part such as data loading", which every
    device does for itself), a flat efficiency a well-tuned setup (not "check the measurements"), and the same
    course alike from two sizes or four (two sizes' +19 % was "about the same at every size")."""
    words = Wording(resolve_locale(tag))
    sentences = {msgid: words.gettext(msgid) for _, _, msgid in COURSES}
    for text, course, msgid in COURSES:
        said = texts(answer(text, resolve_locale(tag)))
        assert sentences[msgid] in said, (tag, text, course)
        assert not [other for other in sentences.values() if other != sentences[msgid] and other in said], text
        assert not [phrase for phrase in DATA_LOADING if phrase in said], (tag, text)
        if words.language.language != "en":
            assert sentences[msgid] != msgid, (tag, course)  # translated, not the English fallback


FORMER_SINGLE = ("no single efficiency", "keiner einzelnen Effizienz", "con ninguna eficiencia", "aucune efficacité",
                 "nessuna efficienza", "com nenhuma eficiência", "どの効率でも", "어떤 효율로도", "任何效率都无法",
                 "任何效率都無法")
SLOWER = ":warning: The speedup falls as devices are added (↓): {steps}. The added devices made the cluster slower: " \
         "the extra communication or contention costs more than the added devices contribute. Look for a saturated " \
         "link or switch."


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_a_cluster_made_slower_is_told_what_costs_more_not_that_no_efficiency_describes_it(tag):
    """`8=15000 16=24000 32=20000`: the table gives E = 31.25 % at 32 devices, so "no single efficiency can
    describe it" was false; the note says what costs more than the added devices bring, and where to look."""
    words = Wording(resolve_locale(tag))
    said = texts(answer("v=2000 8=15000 16=24000 32=20000", resolve_locale(tag)))
    head = words.gettext(SLOWER).split("{steps}")[1]
    assert head in said and not [phrase for phrase in FORMER_SINGLE if phrase in said], said
    assert words.language.language == "en" or head != SLOWER.split("{steps}")[1]


def test_measurements_that_contradict_the_model_are_said_plainly():
    reply = answer("v=1000 2=2100 4=3000 8=2500", resolve_locale("en-US"))
    rows = table(reply).strip("`").splitlines()
    assert rows[1].endswith("⚠") and "2.5× ↓" in rows[3] and "↓" not in rows[1] + rows[2]  # on the speedup it marks
    assert len({row.index("×") for row in rows[1:]}) == 1, rows  # the speedups' signs in one column
    text = str(reply.blocks)
    assert "At 2 devices the measured throughput is above ideal" in text
    assert "The speedup falls as devices are added (↓): 4 → 8 devices (3× → 2.5×)" in text


def test_a_series_is_answered_in_the_readers_language_and_format():
    reply = answer("v=2.000 8=15.800 16=31.000 64=115.200", resolve_locale("de-DE"))
    rows = table(reply).strip("`").splitlines()
    assert rows[3].split()[:4] == ["64", "115.200", "128.000", "90"]


def test_a_channel_copy_writes_figures_every_locale_reads_alike():
    reply = answer("v=2.000 8=15.800 16=31.000 64=115.200", Recipient.of(resolve_locale("de-DE")).for_channel())
    assert "115\u202f200" in table(reply) and "115.200" not in table(reply)


def test_a_reading_note_says_how_a_number_in_another_format_was_read():
    text = str(answer("v=2000 8=15800,5 16=31000", resolve_locale("en-US")).blocks)
    assert "`15800,5` is not written in your number format" in text


def test_a_series_error_shows_how_to_write_a_series():
    reply = answer("v=2000 8=15800", resolve_locale("en-US"))
    assert reply.is_error
    assert "Besides the throughput of one device, a series needs 2 to 12 cluster sizes" in reply.text
    assert "/dpscale v=2,000 8=15,800 16=31,000 64=115,200" in str(reply.blocks)


def test_the_help_shows_a_series_that_computes():
    help_text = str(answer("help", resolve_locale("en-US")).blocks)
    assert "`/dpscale v=2,000 8=15,800 16=31,000 64=115,200`" in help_text
    assert answer("v=2,000 8=15,800 16=31,000 64=115,200", resolve_locale("en-US")).kind is ReplyKind.RESULT


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_twelve_sizes_fit_block_kit_in_every_language(tag):
    locale = resolve_locale(tag)
    for reader in (locale, Recipient.of(locale).for_channel()):
        reply = answer(TWELVE, reader)
        assert reply.kind is ReplyKind.RESULT, reply.text
        assert len(table(reply).splitlines()) == 13
        private = with_buttons(reply, ResultState.of_text(locale, TWELVE))
        assert_within_limits(private.blocks)
        assert [e["action_id"] for e in private.blocks[-1]["elements"]] == ["dpscale_share", "dpscale_edit",
                                                                              "dpscale_explain"]
        assert_within_limits(shared_reply(private, user_id="U1", recipient=locale).blocks)
        assert_no_broadcast(reply.payload())
    rows = "\n".join(f"{2 ** k} = {1000 * 2 ** k}" for k in range(1, 13))
    view = series_form_view(locale, FormMetadata.of(locale, None), (Wording(locale).number(D(2000)), rows))
    assert_within_limits(view["blocks"], max_blocks=MAX_VIEW_BLOCKS)
    assert len(view["title"]["text"]) <= 24
    assert_within_limits(explanations_reply(locale).blocks)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_every_series_error_in_every_language_fits_and_pings_no_one(tag):
    for text in ("v=2000 8=15800", "8=1 16=2", "v=1 8=1 8=2", "v=1 8=1 16=1 <!channel>", "v=1 8=<!channel> 16=2"):
        reply = answer(text, resolve_locale(tag))
        assert reply.is_error
        assert_within_limits(reply.blocks)
        assert_no_broadcast(reply.payload())


def test_the_plain_text_of_a_series_reads_as_a_table():
    text = render_plain_text(answer(SEED, resolve_locale("en-US")))
    assert " 8   15,800   16,000  98.75%" in text


SERIES_INPUTS = ("v=2000 8=15800 16=31000 32=59000 64=108000 at=128", "v=2000 8=15800 16=31000 64=115200 at=128",
                 "v=2000 8=16800 16=33000", "v=1000 2=1500 4=3600", "v=2000 8=15000 16=24000 32=20000")
WORDING = [  # (language, input, what the reply now says, what it said)
    ("es-ES", "v=2000 8=16800 16=33000", "ninguna parte serial ni sobrecarga puede explicarlo", "puede dar eso"),
    ("es-LA", "v=2000 8=16800 16=33000", "ninguna parte serial ni sobrecarga puede explicarlo", "puede dar eso"),
    ("zh-CN", "v=2000 8=16800 16=33000", "串行部分和开销都不会造成这种情况", "串行部分或开销都无法造成"),
    ("zh-TW", "v=2000 8=16800 16=33000", "串列部分和額外開銷都不會造成這種情況", "串列部分或額外開銷都無法造成"),
    ("ja-JP", "v=2000 8=16800 16=33000",
     "1デバイスのスループットが正しいか、また各実行でサンプルあたりの処理量が同じだったか",
     "1デバイスのスループットと、各実行で"),
    ("es-ES", "v=1000 2=1500 4=3600", "busca efectos superlineales", "busca efectos como"),
    ("es-LA", "v=1000 2=1500 4=3600", "busca efectos superlineales", "busca efectos como"),
    ("pt-BR", "v=1000 2=1500 4=3600", "procure efeitos superlineares", "procure efeitos como"),
    ("ko-KR", "v=2000 8=15800 16=31000 32=59000 64=108000", "클러스터가 커질수록 직렬 비율 e가 증가합니다",
     "직렬 비율 e가 클러스터가 커질수록"),
    ("de-DE", "v=2000 8=15800 16=31000 32=59000 64=108000 at=128", "spricht für das Modell mit dem seriellen Anteil",
     "für den linearen seriellen Anteil"),
    ("de-DE", "v=2000 8=15800 16=31000 64=115200 at=128", "spricht für das Modell mit konstantem seriellem Anteil",
     "für einen konstanten seriellen Anteil"),
]


@pytest.mark.parametrize(("tag", "text", "now", "former"), WORDING)
def test_the_series_reads_as_its_language_writes(tag, text, now, former):
    """The readers' wording of the series sentences: es "puede explicarlo" (not "puede dar eso") and the
    *superlineales* the source names; zh "和…都不会"; ja's check of two parallel things; ko's subject after
    "클러스터가 커질수록" (not two subjects in a row); de's verdicts naming the model alike."""
    said = texts(answer(text, resolve_locale(tag)))
    assert now in said and former not in said, said


@pytest.mark.parametrize(("tag", "calque"), [("ja-JP", "クラスターとともに"), ("ko-KR", "직렬 비율 e가 클러스터가"),
                                             ("ko-KR", "측정한 e가 클러스터가")])
def test_no_series_reply_keeps_a_calque(tag, calque):
    """ja 「クラスターとともに」 ("with the cluster") and ko's double subject, in no series or forecast reply."""
    for text in SERIES_INPUTS:
        assert calque not in texts(answer(text, resolve_locale(tag))), text
