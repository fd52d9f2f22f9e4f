"""A colleague's message read for the form: its numbers in its author's format, placed by what they are."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.errors import ErrorCode
from bot.model.calculator import Quantity
from bot.reader.excerpts import MessageDoubt, read_message
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Audience, Recipient

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
UNKNOWN = "unknown"


def author(tag: str):
    return Recipient.of(resolve_locale("en-US"), Audience.UNKNOWN) if tag == UNKNOWN else Recipient.parse(tag)


@pytest.mark.parametrize(("tag", "text", "expected"), [
    # written as a command: read as one
    ("de-DE", "64 2.000 90 %", {D: "64", V: "2000", E: "0.90"}),
    ("en-US", "d=64 v=2k e=90%", {D: "64", V: "2000", E: "0.90"}),
    # prose: a percentage is the efficiency, a whole number before a word for devices the count
    ("de-DE", "Wir haben 64 GPUs mit je 2.000 Samples/s bei 90 % Effizienz", {D: "64", V: "2000", E: "0.90"}),
    ("fr-FR", "64 GPU à 2000,5 échantillons/s, efficacité 0,9", {D: "64", V: "2000.5", E: "0.9"}),
    # a label is no value
    ("de-DE", "Lauf 7: 64 GPUs, je 2.000 Samples/s, Effizienz 90 %", {D: "64", V: "2000", E: "0.90"}),
    ("en-US", "#12 64 GPUs 2,000 samples/s 90%", {D: "64", V: "2000", E: "0.90"}),
    # of two throughputs the smaller is one device's, the larger the cluster's
    ("en-US", "64 GPUs, 115k samples/s, 2k on one", {D: "64", V: "2000", A: "115000"}),
    ("ja-JP", "115,200 samples/s on 64 nodes, 2,000 each", {D: "64", V: "2000", A: "115200"}),
    # a figure dpscale wrote for a channel (no-break spaces) is one number, for any reader; the actual throughput
    (UNKNOWN, "Actual throughput: 115\u202f200 samples/s, 64 devices, 90 %", {D: "64", A: "115200", E: "0.90"}),
    # four values: three are enough, the fourth is left for the form to solve
    ("en-US", "64 GPUs at 2,000 samples/s and 90% give 115,200", {D: "64", V: "2000", E: "0.90"}),
    # markup is passed over: a user id, a link, an emoji, bold
    ("en-US", "<@U0123> :fire: *64* GPUs <https://x.example/run/42|run 42> 2,000/s 90%", {D: "64", V: "2000",
                                                                                       E: "0.90"}),
    ("en-US", "Who's up for lunch?", {}),
])
def test_a_message_fills_the_fields_its_numbers_stand_for(tag, text, expected):
    excerpt = read_message(text, author(tag))
    assert excerpt.question is None
    assert excerpt.values == {quantity: Decimal(value) for quantity, value in expected.items()}


@pytest.mark.parametrize(("tag", "text", "token", "rest"), [
    ("en-US", "64 GPUs at 2.000 samples/s each, 90%", "2.000", {D: "64", E: "0.90"}),  # 2 or 2000?
    ("de-DE", "64 GPUs, 2,000 Samples/s, 90 %", "2,000", {D: "64", E: "0.90"}),
    (UNKNOWN, "64 devices, 2,000 samples/s, 90 %", "2,000", {D: "64", E: "0.90"}),  # any locale may have
    ("en-US", "<@UDPSCALE> 64 2.000 90 %", "2.000", {D: "64", E: "0.90"}),  # a command with one number in doubt
])
def test_a_number_the_authors_format_does_not_settle_is_asked_about_not_placed(tag, text, token, rest):
    excerpt = read_message(text, author(tag))
    assert excerpt.question is not None and excerpt.question.code is ErrorCode.AMBIGUOUS_NUMBER
    assert excerpt.question.token == token
    assert excerpt.values == {quantity: Decimal(value) for quantity, value in rest.items()}


@pytest.mark.parametrize(("text", "rule"), [
    ("scaling from 8 to 64 GPUs: 2000 img/s, 90%", MessageDoubt.RANGE_OF_SIZES),
    ("64 GPUs and 128 GPUs, 2000 img/s, 90%", MessageDoubt.TWO_NUMBERS_ONE_VALUE),
])
def test_a_question_only_a_message_is_asked_carries_its_own_typed_name(text, rule):
    question = read_message(text, author("en-US")).question
    assert question is not None and question.code is ErrorCode.UNPLACED_NUMBER and question.rule is rule
