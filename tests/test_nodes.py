"""A count of nodes is no count of devices: a node usually holds several GPUs, so `8 nodes 2000 90%` may be 8
devices or 64, a factor of 8 no reply may guess. It is read as the devices only where the rate is said to be one
node's (`per node`, `each`) and no other count of devices is given; otherwise it is asked about, in every catalog."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.i18n import shipped_languages, translations_for
from bot.model.calculator import Quantity
from bot.reader.excerpts import read_message
from bot.reader.grammar import Doubt
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text

D, V, E = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY
TAGS = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR", "it": "it-IT",
        "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}
SOURCE = ("{token}: a node usually holds several devices, so the number of devices is unclear. Give the number of "
          "devices and one device's throughput, like {example}, or the number of nodes and the throughput per node.")


@pytest.mark.parametrize(("tag", "text", "asked"), [
    ("en-US", "8 nodes 2000 90%", "8 nodes"),
    ("en-US", "8 nodes @ 1,250 it/s, 95%", "8 nodes"),
    ("en-US", "64 GPUs on 8 nodes, 2,000 img/s, 90%", "8 nodes"),  # beside a count of GPUs
    ("en-US", "8 nodes with 8 GPUs each, 2,000 img/s, 90%", "8 nodes"),  # 64 devices, or 8?
    ("en-US", "64 GPUs, 16,000 img/s per node, 90%", "16,000 img/s per node"),  # one node's rate, 64 GPUs
    ("en-US", "8 nodes, 2,000 img/s per GPU each, 90%", "8 nodes"),  # `each` GPU's rate, not a node's
    ("de-DE", "8 Knoten mit 2.000 Bilder/s, 90 %", "8 Knoten"),
    ("fr-FR", "8 nœuds, 2 000 img/s, 90 %", "8 nœuds"),
    ("es-ES", "8 nodos, 2000 img/s, 90 %", "8 nodos"),
    ("it-IT", "8 nodi, 2000 img/s, 90%", "8 nodi"),
    ("pt-BR", "8 nós, 2.000 img/s, 90%", "8 nós"),
])
def test_a_count_of_nodes_is_asked_about(tag, text, asked):
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(tag))
    assert (raised.value.code, raised.value.rule, raised.value.token) == (
        ErrorCode.UNPLACED_NUMBER, Doubt.COUNT_OF_NODES, asked)


@pytest.mark.parametrize(("tag", "text"), [
    ("en-US", "8 nodes, 2,000 img/s per node, 90%"), ("en-US", "8 nodes, 2,000 img/s each, 90%"),
    ("en-US", "2,000 img/s on one node, 8 nodes, 90%"), ("de-DE", "8 Knoten, 2.000 Bilder/s pro Knoten, 90 %"),
    ("fr-FR", "8 nœuds à 2 000 img/s par nœud, 90 %"), ("es-ES", "8 nodos, 2000 img/s por nodo, 90 %"),
])
def test_a_count_of_nodes_beside_a_rate_per_node_is_the_count_of_devices(tag, text):
    """Then the model's device is the node: 8 of them at one node's rate."""
    values = parse_command(text, Recipient.parse(tag)).values
    assert values == {D: Decimal(8), V: Decimal(2000), E: Decimal("0.9")}


def test_a_channels_message_about_nodes_is_asked_about_too():
    excerpt = read_message("trained on 8 nodes at 2,000 img/s, 90% scaling", Recipient.parse("en-US"))
    assert excerpt.values == {} and excerpt.question is not None and excerpt.question.rule == Doubt.COUNT_OF_NODES


@pytest.mark.parametrize("catalog", sorted(shipped_languages()))
def test_the_question_about_nodes_is_asked_in_every_catalog_and_names_what_was_typed(catalog):
    """`8 nodes 2000 90%` was answered for 8 devices (14,400 samples/s) where 64 GPUs would deliver 115,200."""
    tag = TAGS[catalog]
    text = render_plain_text(answer("8 nodes 2000 90%", Recipient.parse(tag))).splitlines()[0]
    translated = translations_for(resolve_locale(tag)).gettext(SOURCE)
    assert "8 nodes" in text and "14,400" not in text and "14.400" not in text, text
    assert translated.split("{token}")[-1].split("{example}")[0] in text, text
    assert catalog.startswith("en") or translated != SOURCE, catalog
