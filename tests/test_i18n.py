"""The gettext catalogs: complete, not fuzzy, placeholders intact, and in step with the code."""

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bot.engine import answer
from bot.i18n import LOCALES_DIR, compile_catalog, shipped_languages
from bot.reader.numbers import resolve_locale

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(language: str):
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=language)


@cache  # the code does not change during a run: extracted once, not once per language
def messages_in_code() -> frozenset[str]:
    method_map = [("bot/**.py", "python")]
    extracted = extract_from_dir(str(ROOT), method_map=method_map, keywords=DEFAULT_KEYWORDS)
    return frozenset(message for _, _, message, *_ in extracted)


def test_german_and_english_ship():
    assert {"de", "en"} <= set(shipped_languages())


@pytest.mark.parametrize("language", shipped_languages())
def test_each_compiled_catalog_is_what_its_po_compiles_to(language):
    """The `.mo` a process reads is the `.po` compiled: after editing a `.po`, `pybabel compile -d locales`."""
    messages = LOCALES_DIR / language / "LC_MESSAGES"
    assert (messages / "messages.mo").exists(), f"run: pybabel compile -d locales ({language} has no .mo)"
    assert (messages / "messages.mo").read_bytes() == compile_catalog(messages / "messages.po", language), (
        f"locales/{language}/LC_MESSAGES/messages.mo is stale: run pybabel compile -d locales")


@pytest.mark.parametrize("language", shipped_languages())
def test_every_message_is_translated_and_none_is_fuzzy(language):
    entries = [m for m in catalog(language) if m.id]
    assert entries
    assert [m.id for m in entries if not m.string] == []
    assert [m.id for m in entries if m.fuzzy] == []


@pytest.mark.parametrize("language", shipped_languages())
def test_placeholders_match_between_source_and_translation(language):
    for message in catalog(language):
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[-1]
        strings = (message.string,) if isinstance(message.string, str) else message.string
        for string in strings:
            assert sorted(PLACEHOLDER.findall(source)) == sorted(PLACEHOLDER.findall(string)), message.id


@pytest.mark.parametrize("language", shipped_languages())
def test_plural_messages_have_every_form_the_languages_cldr_rules_name(language):
    messages = catalog(language)
    plurals = [m for m in messages if m.id and isinstance(m.id, tuple)]
    assert plurals  # counts of devices go through ngettext
    for message in plurals:
        assert len(message.string) == messages.num_plurals and all(message.string), message.id


@pytest.mark.parametrize(
    ("locale", "count", "fragment"),
    [("en-US", 1, "1 device ×"), ("en-US", 2, "2 devices ×"), ("de-DE", 1, "1 Gerät ×"), ("de-DE", 3, "3 Geräte ×"),
     ("fr-FR", 1, "1 accélérateur ×"), ("fr-FR", 2, "2 accélérateurs ×"), ("pt-BR", 1, "1 dispositivo ×"),
     ("es-ES", 5, "5 dispositivos ×"), ("ja-JP", 1, "1台 ×")],
)
def test_counts_of_devices_take_the_languages_plural_form(locale, count, fragment):
    assert fragment in answer(f"{count} 2000 90%", resolve_locale(locale)).text


@pytest.mark.parametrize("language", shipped_languages())
def test_every_message_in_the_code_is_in_the_catalog(language):
    in_catalog = {m.id for m in catalog(language) if m.id}
    assert messages_in_code() - in_catalog == set()


def test_the_template_matches_the_code():
    with (LOCALES_DIR / "messages.pot").open("rb") as pot:
        template = {m.id for m in read_po(pot) if m.id}
    assert template == messages_in_code()
