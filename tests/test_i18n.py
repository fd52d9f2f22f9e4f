"""The gettext catalogs: complete, not fuzzy, placeholders intact, and in step with the code."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, shipped_languages

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(language: str):
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=language)


def messages_in_code() -> set[str]:
    method_map = [("bot/**.py", "python")]
    extracted = extract_from_dir(str(ROOT), method_map=method_map, keywords=DEFAULT_KEYWORDS)
    return {message for _, _, message, *_ in extracted}


def test_german_and_english_ship():
    assert {"de", "en"} <= set(shipped_languages())


@pytest.mark.parametrize("language", shipped_languages())
def test_every_message_is_translated_and_none_is_fuzzy(language):
    entries = [m for m in catalog(language) if m.id]
    assert entries
    assert [m.id for m in entries if not m.string] == []
    assert [m.id for m in entries if m.fuzzy] == []


@pytest.mark.parametrize("language", shipped_languages())
def test_placeholders_match_between_source_and_translation(language):
    for message in catalog(language):
        if message.id:
            assert sorted(PLACEHOLDER.findall(message.id)) == sorted(PLACEHOLDER.findall(message.string)), message.id


@pytest.mark.parametrize("language", shipped_languages())
def test_every_message_in_the_code_is_in_the_catalog(language):
    in_catalog = {m.id for m in catalog(language) if m.id}
    assert messages_in_code() - in_catalog == set()


def test_the_template_matches_the_code():
    with (LOCALES_DIR / "messages.pot").open("rb") as pot:
        template = {m.id for m in read_po(pot) if m.id}
    assert template == messages_in_code()
