"""The reader as one value (`bot.reader.recipient.Recipient`): its tag, as buttons, forms and stored preferences carry
it."""

from __future__ import annotations

import pytest

from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Audience, Recipient
from bot.replies import render_plain_text
from bot.slack.state import FormMetadata, ResultState

# tags as versions before this value wrote them (`str()` of a Babel locale with modifiers), and what they stand for
WRITTEN_BEFORE = [
    ("de_DE", "de_DE", "de_DE", Audience.USER, False),
    ("en_US@unknown", "en_US", "en_US", Audience.UNKNOWN, False),
    ("fr_FR@channel", "fr_FR", "fr_FR", Audience.CHANNEL, False),
    ("en_US@numbers=de_DE", "en_US", "de_DE", Audience.USER, True),
    ("en_US@numbers=de_CH@channel", "en_US", "de_CH", Audience.CHANNEL, True),
    ("fr_FR@numbers=de_CH", "fr_FR", "de_CH", Audience.USER, True),
    ("es_419", "es_419", "es_419", Audience.USER, False),
    ("zh_Hant_TW@channel", "zh_Hant_TW", "zh_Hant_TW", Audience.CHANNEL, False),
]


@pytest.mark.parametrize(("tag", "words", "numbers", "audience", "chosen"), WRITTEN_BEFORE)
def test_a_tag_written_before_reads_as_the_reader_it_stood_for_and_is_written_again_the_same(
    tag, words, numbers, audience, chosen
):
    reader = Recipient.parse(tag)
    assert (str(reader.words), str(reader.numbers), reader.audience, reader.chosen_format) == (
        words, numbers, audience, chosen)
    assert reader.tag == tag


@pytest.mark.parametrize("tag", [tag for tag, *_ in WRITTEN_BEFORE])
def test_a_button_value_and_a_forms_metadata_written_before_still_rebuild_their_reader(tag):
    """A result's buttons and a form's private_metadata as the earlier code wrote them (`l`, and `o` for the
    user's own locale beside a `lang=` word)."""
    state = ResultState.decode(f'{{"l":"{tag}","o":"en_US@numbers=de_DE","t":"64 2000 90%"}}')
    assert state.recipient.tag == tag
    assert state.recipient.own == Recipient.parse("en_US@numbers=de_DE")
    metadata = FormMetadata.decode(f'{{"l":"{tag}","r":"https://hooks.example/1"}}')
    assert metadata.recipient == Recipient.parse(tag) and metadata.recipient.own is None


@pytest.mark.parametrize("tag", ["de_DE@everyone", "de_DE@numbers=xx_YY", "xx", "de_DE@numbers=de_CH@nobody"])
def test_a_tag_that_names_no_reader_is_refused_as_an_unknown_locale(tag):
    with pytest.raises(UserInputError) as caught:
        Recipient.parse(tag)
    assert caught.value.code is ErrorCode.UNKNOWN_LOCALE


def test_a_locale_is_no_longer_read_with_an_audience_attached():
    """An audience is the reader's, never the locale's: `resolve_locale` refuses one instead of dropping it."""
    with pytest.raises(UserInputError):
        resolve_locale("en-US@unknown")


def test_a_channel_reads_a_chosen_format_grouped_so_no_one_misreads_it_and_an_unknown_reader_stays_unknown():
    chosen = Recipient.parse("en_US@numbers=de_DE")
    assert chosen.for_channel().tag == "en_US@numbers=de_DE@channel"
    assert Recipient.parse("de_DE@unknown").for_channel().audience is Audience.UNKNOWN
    reply = render_plain_text(answer("64 2.000 90 %", chosen.for_channel()))
    assert "115\u202f200" in reply  # the channel's grouping, the chosen format's decimal mark


def test_lang_keeps_the_users_own_reader_beside_the_chosen_language():
    user = Recipient.parse("en_US@numbers=de_DE")
    reply_reader = user.answering_in(resolve_locale("fr-FR"))
    assert (reply_reader.tag, reply_reader.own) == ("fr_FR", user)
    assert user.answering_in(resolve_locale("en_US")).own == user  # English words, but not the user's numbers
    assert Recipient.parse("en_US").answering_in(resolve_locale("en-US")).own is None  # the same reader


def test_a_chosen_format_makes_the_unknown_reader_one_user_of_that_format():
    """Slack did not tell the user's language, but their saved format says how they write numbers."""
    unknown = Recipient.of(resolve_locale("en-US"), Audience.UNKNOWN)
    chosen = unknown.choosing(resolve_locale("en-US"))
    assert (chosen.audience, chosen.chosen_format, chosen.tag) == (Audience.USER, True, "en_US@numbers=en_US")
    assert Recipient.parse("de_DE").choosing(resolve_locale("de-DE")).chosen_format is False
