"""What buttons and forms carry: read back exactly as written, anything else refused, Slack's limits kept."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.model.calculator import Quantity
from bot.reader.recipient import Recipient
from bot.slack.state import BUTTON_VALUE_LIMIT, BadStateError, FormMetadata, ResultState
from examples import examples

GERMAN = Recipient.parse("de-DE")


def test_a_result_state_reads_back_as_written():
    state = ResultState.of_text(GERMAN, "64 2.000 90 %")
    again = ResultState.decode(state.encode())
    assert (again.recipient, again.text, again.form_fields()) == (GERMAN, "64 2.000 90 %", None)
    fields = ResultState.of_fields(GERMAN, {Quantity.DEVICES: "64", Quantity.ACTUAL: None})
    assert ResultState.decode(fields.encode()).form_fields() == {
        Quantity.DEVICES: "64", Quantity.THROUGHPUT: None, Quantity.EFFICIENCY: None, Quantity.ACTUAL: None}


@pytest.mark.parametrize(
    "value",
    [None, "", "not json", "[]", '{"l":"de_DE"}', '{"l":"xx_YY","t":"1"}', '{"l":"de_DE","t":"1","f":{"devices":"1"}}',
     '{"l":"de_DE","t":"1","extra":1}', '{"l":"de_DE","f":{"speed":"1"}}', '{"l":"de_DE","t":"' + "9" * 600 + '"}'],
)
def test_a_value_this_app_did_not_write_is_refused(value):
    with pytest.raises(BadStateError):
        ResultState.decode(value)


def test_a_state_too_large_for_a_button_raises_before_slack_would_refuse_it():
    fields = {q: "9" * 40 for q in Quantity}
    assert len(ResultState.of_fields(GERMAN, fields).encode()) < BUTTON_VALUE_LIMIT
    with pytest.raises(ValueError):
        ResultState.of_fields(GERMAN, {Quantity.DEVICES: "9" * 41})


@pytest.mark.parametrize("url", ["javascript:alert(1)", "ftp://x", "h" * 2000])
def test_form_metadata_keeps_only_a_plausible_response_url(url):
    with pytest.raises(ValueError):
        FormMetadata.of(GERMAN, url)
    assert FormMetadata.decode(FormMetadata.of(GERMAN, "https://hooks.example/1").encode()).response_url


def test_a_result_read_for_an_unknown_reader_is_edited_in_the_locale_slack_has_told_since():
    """Edit opens the form in the reader's language, not the default's, once Slack has told it."""
    from bot.slack.actions import known_now

    unknown = Recipient.parse("en_US@unknown")
    state = ResultState.of_text(unknown, "64 2000 90%")
    assert known_now(state, Recipient.parse("de-DE")).recipient == Recipient.parse("de-DE")
    assert known_now(state, unknown) == state  # still not told: as it was read
    chosen = ResultState.of_text(Recipient.parse("de_DE@unknown"), "64 2000 90%").model_copy(
        update={"own_tag": str(unknown)})  # `lang=de` from an unknown reader: both kept
    assert known_now(chosen, Recipient.parse("fr-FR")) == chosen


@settings(max_examples=examples(300))
@given(text=st.text(max_size=520), tag=st.sampled_from(["de_DE", "en_US", "en_US@unknown", "fr_FR@numbers=de_CH"]))
def test_a_commands_button_value_is_written_exactly_as_the_model_writes_it(text, tag):
    """The value a command's buttons carry is written directly, for speed: the same text as the model's, and
    refused where the model refuses it."""

    locale = Recipient.parse(tag)
    try:
        expected: str | type[Exception] = ResultState.of_text(locale, text).encode()
    except ValueError:
        expected = ValueError
    try:
        written: str | type[Exception] = ResultState.text_value(locale, text)
    except ValueError:
        written = ValueError
    event("refused" if expected is ValueError else "written")
    assert written == expected
