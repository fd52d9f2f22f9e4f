"""Translations, from the committed gettext catalogs.

The `.po` files are the source of truth; beside each lies its compiled `.mo` (`pybabel compile -d locales`),
which is what a process reads: 1 ms a language instead of some 20 ms to compile the `.po`, and Babel's `.po`
reader (another 20 ms of imports) never loaded. A test holds every `.mo` to what its `.po` compiles to, so none
can go stale unnoticed; a catalog with no `.mo` yet is compiled in memory from its `.po`.

A locale's catalog is the most specific one shipped: by script (`zh_Hans`, `zh_Hant`), then by region (`pt_BR`,
`es_419`, `en_GB`, and CLDR's regional parents: Mexico's is `es_419`), then by language (`fr`), then another
region's of the same language (`pt_PT` gets `pt_BR`); a language with none gets English.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources
from pathlib import Path

from babel import Locale
from babel.core import get_global
from babel.support import NullTranslations, Translations

__all__ = ["LOCALES_DIR", "catalog_name", "compile_catalog", "shipped_languages", "translations_for"]

DOMAIN = "messages"
FALLBACK_LANGUAGE = "en"
# regions whose English follows British spelling rather than American
REGION_CATALOGS = {"en_IN": "en_GB", "en_AU": "en_GB", "en_NZ": "en_GB", "en_IE": "en_GB", "en_ZA": "en_GB"}


def _locales_dir() -> Path:
    """The catalogs: inside the installed package (a wheel), else at the top of a source checkout."""
    packaged = Path(str(resources.files("bot"))) / "locales"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parent.parent / "locales"


LOCALES_DIR = _locales_dir()


@lru_cache(maxsize=1)
def shipped_languages() -> tuple[str, ...]:
    """Catalogs in `locales/`, e.g. ('de', 'en', 'pt_BR', 'zh_Hans')."""
    return tuple(sorted(p.parent.parent.name for p in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


@lru_cache(maxsize=512)
def catalog_name(locale: Locale) -> str:
    """The shipped catalog that speaks `locale`'s language best (looked up once per locale: every reply asks)."""
    shipped = shipped_languages()
    regional = f"{locale.language}_{locale.territory}"
    candidates = [
        f"{locale.language}_{locale.script}" if locale.script else None,
        REGION_CATALOGS.get(regional),
        regional if locale.territory else None,
        get_global("parent_exceptions").get(regional),  # CLDR's own parent: es_MX → es_419
        locale.language,
        # another region's catalog of the same language rather than English: pt_PT → pt_BR, zh → zh_Hans
        *(name for name in shipped if name.partition("_")[0] == locale.language),
    ]
    return next((name for name in candidates if name in shipped), FALLBACK_LANGUAGE)


def translations_for(locale: Locale) -> NullTranslations:
    """The catalog for `locale`'s language; English for a language with no catalog."""
    return _load(catalog_name(locale))


@lru_cache(maxsize=32)
def _load(name: str) -> NullTranslations:
    compiled = LOCALES_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if compiled.exists():
        with compiled.open("rb") as mo_file:
            return Translations(mo_file, domain=DOMAIN)
    path = LOCALES_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return NullTranslations()
    return Translations(io.BytesIO(compile_catalog(path, name)), domain=DOMAIN)


def compile_catalog(path: Path, name: str) -> bytes:
    """The `.mo` that `pybabel compile` writes for the `.po` at `path` (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=name, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()
