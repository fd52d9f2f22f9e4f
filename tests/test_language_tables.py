"""Every shipped language has every table of words (`bot.reader.languages`): a catalog added without its language's
words, or a language's record with a table left empty that the language writes, fails here by name."""

from __future__ import annotations

import dataclasses

import pytest
from babel import Locale

from bot.i18n import shipped_languages, translations_for
from bot.model.calculator import Quantity
from bot.reader.keywords import word_list
from bot.reader.languages import LANGUAGES, Words
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from bot.reader.series_syntax import wants_series_form

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
CJK = ("ja", "ko", "zh_Hans", "zh_Hant")
# tables a language may leave empty, and why: its words for the thing are written another way
MAY_BE_EMPTY = {
    **{(language, "percent"): "百分之九十 comes before the number; dpscale does not read it"
       for language in ("zh_Hans", "zh_Hant")},
    **{(language, "scale"): "a scale is a suffix on the number (`2万`, `2만`), read as the number is"
       for language in CJK},
    **{(language, "plurals"): "a noun has no plural" for language in CJK},
    **{(language, table): "one device is written on the count (`1台あたり`, `GPU당`), in bot.reader.grammar's own rows"
       for language in CJK for table in ("device_nouns", "per", "on", "one", "single")},
    **{(language, "nodes"): "no word for a node is read (`8ノード` is named as an unknown word), so none is asked about"
       for language in CJK},
}


def missing_tables(languages: dict[str, Words], catalogs: tuple[str, ...]) -> list[str]:
    """What a language lacks: a catalog with no record of its own language's words (the words would silently be
    English ones), or a record's table left empty, or a key word or label missing for a quantity."""
    missing = [f"{catalog}: no words" for catalog in catalogs
               if word_list(catalog) not in languages or word_list(catalog).split("_")[0] != catalog.split("_")[0]]
    for language, words in languages.items():
        for table in dataclasses.fields(Words):
            if not getattr(words, table.name) and (language, table.name) not in MAY_BE_EMPTY:
                missing.append(f"{language}: {table.name}")
        missing += [f"{language}: keys for {q.value}" for q in (D, V, E, A) if not words.keys.get(q)]
        missing += [f"{language}: labels for {q.value}" for q in (D, E) if not words.labels.get(q)]
        if not (words.labels.get(V) or (words.rate_nouns and words.per_second)):
            missing.append(f"{language}: a rate")
    return missing


def test_every_shipped_language_has_every_table():
    assert missing_tables(LANGUAGES, shipped_languages()) == []


def test_every_record_is_a_shipped_catalogs_language():
    """No record is left over from a catalog that is gone."""
    assert set(LANGUAGES) == {word_list(catalog) for catalog in shipped_languages()}


def test_a_language_added_without_its_words_is_named_with_what_it_lacks():
    """A Dutch catalog with no record, and a record that forgot its percent words, are both reported."""
    forgetful = {**LANGUAGES, "de": dataclasses.replace(LANGUAGES["de"], percent=(), labels={D: ("geräte",)})}
    assert missing_tables(forgetful, (*shipped_languages(), "nl")) == [
        "nl: no words", "de: percent", "de: labels for efficiency"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_each_languages_own_words_are_read(language):
    """Each record's first words work: its series word opens the form, its help word asks for help, and a
    command in its key words and labels computes."""
    words = LANGUAGES[language]
    assert wants_series_form(words.series[0])
    assert parse_command(words.help[0], resolve_locale("en-US")).wants_help
    keyed = f"{words.keys[D][0]}=64 {words.keys[V][0]}=2000 {words.keys[E][0]}=90%"
    assert set(parse_command(keyed, resolve_locale("en-US")).values) == {D, V, E}
    labelled = f"64 {words.labels[D][0]} 2000 90% {words.labels[E][0]}"
    assert parse_command(labelled, resolve_locale("en-US")).values[D] == 64


@pytest.mark.parametrize("catalog", sorted(shipped_languages()))
def test_the_catalogs_own_name_for_a_series_opens_its_form(catalog):
    """The name the replies give the series (`多規模量測`, `多规模测量`, `Messreihe`), where it is one word a user can
    type after `/dpscale`, opens the form as the help's word does."""
    name = translations_for(Locale.parse(catalog)).gettext("Measurement series")
    assert " " in name or wants_series_form(name), name
