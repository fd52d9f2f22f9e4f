"""Translations, compiled from the committed `.po` catalogs when first needed.

The `.po` files are the only source of truth: there is no committed `.mo` that could go stale. Each catalog is
compiled in memory with Babel's own reader and writer the first time its language is asked for.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
FALLBACK_LANGUAGE = "en"


@lru_cache(maxsize=1)
def shipped_languages() -> tuple[str, ...]:
    """Languages with a catalog in `locales/`, e.g. ('de', 'en')."""
    return tuple(sorted(p.parent.parent.name for p in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


def translations_for(locale: Locale) -> NullTranslations:
    """The catalog for `locale`'s language; English for a language with no catalog."""
    language = locale.language if locale.language in shipped_languages() else FALLBACK_LANGUAGE
    return _load(language)


@lru_cache(maxsize=16)
def _load(language: str) -> NullTranslations:
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return NullTranslations()
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)
