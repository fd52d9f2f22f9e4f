"""Every message of every catalog, rendered as a user sees it, keeps its language's mechanical rules.

Two kinds of text are checked: each catalog entry formatted with realistic values (so no message escapes, even one
no test input reaches), and the real replies, form, App Home and menus built by the renderers. The rules:

- French: a narrow no-break space (U+202F) before `; : ! ?` and inside « »; a no-break space before `%` after a
  number (U+202F, or U+00A0 as CLDR writes French percentages).
- Japanese and Chinese: no ASCII space after `。！？` (sentences are joined as those languages join them).
- Korean: no fallback particle such as `을(를)` or `(으)로` left visible, and no particle marker `{을/를}` either.
- Every language: a `code` span never touches a letter (Slack renders it only at a word boundary: `` `foo`는 ``
  shows its backticks).
- Every glossary's *One spelling* table: each "Used" spelling appears, no "Not used" spelling appears.
- Placeholders: each one is filled, and each value given appears in the text.
- Slack's limits (tests/blockkit.py) for every payload.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from babel.lists import format_list
from babel.messages.pofile import read_po

from blockkit import MAX_VIEW_BLOCKS, assert_within_limits
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.format_choice import build_format_blocks, build_format_saved_reply, build_unknown_format_reply
from bot.i18n import LOCALES_DIR, shipped_languages
from bot.model.calculator import Quantity
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Recipient
from bot.replies import build_error_reply, build_help_reply
from bot.replies.blocks import code
from bot.replies.particles import MARKER, fill
from bot.replies.wording import EXAMPLE, Wording, wording_for
from bot.slack.modals import TITLE_LIMIT
from bot.slack.state import FormMetadata
from bot.slack.views import (
    direct_message_note,
    form_view,
    home_view,
    outdated_reply,
    result_actions,
    share_failed_reply,
    shared_reply,
)

# one Slack locale per shipped catalog (as scripts/render_samples.py renders them)
TAGS = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR",
        "it": "it-IT", "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}
LANGUAGES = sorted(shipped_languages())
PLACEHOLDER = re.compile(r"\{(\w+)\}")
NNBSP, NBSP = "\u202f", "\u00a0"


def test_every_shipped_catalog_is_checked():
    assert set(LANGUAGES) == set(TAGS)


# --- the texts ----------------------------------------------------------------------------------------------------


def placeholder_values(words: Wording) -> dict[str, str]:
    """A realistic value for every placeholder the catalogs use, as the code fills it (code spans where the code
    writes one)."""
    _ = words.gettext
    d, v, e = EXAMPLE
    other = resolve_locale("en-US" if words.language.language != "en" else "de-DE")
    return {
        "token": code("2.000"), "example": code(words.number(v)), "keys": code(words.key_list(lang=True)),
        "examples": words.alternatives([code(f"format={tag}") for tag in ("de-DE", "en-US", "fr-FR")]),
        "slack": code("format=slack"),
        "usage": code("/dpscale " + _("DEVICES THROUGHPUT EFFICIENCY")),
        "options": _("{first} or {second}").format(first=code("2"), second=code("2000")),
        "padded": code(words.plain(Decimal("1.234"))),  # an ambiguous number's decimal reading, its zero added
        "first": code("2"), "second": code("2000"),
        "thousands": code(words.number(Decimal(2000))), "fraction": code(words.number(Decimal("0.9"))),
        "grouped": code(words.number(Decimal(2000))),
        "percent": code(words.percent(e)), "lang": code(words.key(None) + "de"),
        "command": code("/dpscale series"),
        "name": words.locale_name, "format": words.locale_name, "own": words.format_name(other),
        "language": words.language.get_language_name(words.language) or str(words.language),
        "value": words.percent(e), "efficiency": words.percent(e), "share": words.percent(e),
        "hundred": words.hundred, "one": words.percent(Decimal("0.01")), "other": words.plain(Decimal(2000)),
        "rate": words.rate(words.number(v)), "actual": words.rate(words.number(d * v * e)),
        "devices": words.number(d, 0), "speedup": words.times(words.number(d * e)), "ideal": words.times("64"),
        "high": words.number(Decimal(128000)), "low": words.percent(Decimal("0.0001")), "limit": "500",
        "thousand": words.plain(Decimal(1000)),  # the factor two readings of a number differ by
        "meaning": _("cluster throughput and speedup"),  # what a help example does
        "quantity": _("The scaling efficiency"), "label": _("Devices"),
        "message": _("{quantity} must be between {low} and {high}.").format(
            quantity=_("The scaling efficiency"), low=words.percent(Decimal("0.0001")), high=words.hundred),
        "bar": "█" * 18 + "░" * 2, "user": "<@U0123ABCD>", "workspace": "Acme Research",
        "link": '<a href="/slack/install">/slack/install</a>',
        # the measurement series
        "sizes": words.number(Decimal(8), 0), "count": words.number(Decimal(3), 0),
        "given": words.number(Decimal(1), 0),
        "points": words.number(Decimal("2.5")), "last": words.percent(Decimal("0.82")),
        "steps": words.comma.join(["8 → 16"] * 2), "pair": code("8=15000"),
        "before": words.times(words.number(Decimal("7.6"))), "after": words.times(words.number(Decimal("7.1"))),
        # the forecast (`at=128`) and the chart
        "e": words.number(Decimal("0.00191"), 6), "c": words.number(Decimal("0.00206"), 6),
        "q": "−" + words.number(Decimal("0.0278"), 6), "model": _("Constant serial fraction (e = {e})").format(
            e=words.number(Decimal("0.00191"), 6)), "residual": words.percent(Decimal("0.008")),
        "throughput": words.rate(words.number(Decimal(204000), 0)), "throughput_low": words.number(Decimal(204000), 0),
        "throughput_high": words.rate(words.number(Decimal(209000), 0)), "ratio": words.number(Decimal(64), 0),
        "largest": words.number(Decimal(64), 0), "file": "scaling.png",
        # the message shortcut: whose message, and the question about one of its numbers
        "author": "<@U0123ABCD>", "app": "GitHub",
        "numbers": words.spans([code(number) for number in ("64", "2000")]),
        "question": _("{token} could mean {options}. Write it as one of those.").format(
            token=code("2.000"), options=_("{first} or {second}").format(first=code("2"), second=code("2000"))),
    }


def values_for(msgid: str | tuple[str, ...], values: dict[str, str], words: Wording) -> dict[str, str]:
    """`values`, but {first} is the efficiency a series starts at where no {second} follows it (`{first} or
    {second}` lists code spans)."""
    source = msgid if isinstance(msgid, str) else msgid[0]
    return values if "{second}" in source else {**values, "first": words.percent(Decimal("0.95"))}


@lru_cache(maxsize=32)
def catalog_texts(language: str) -> tuple[str, ...]:
    """Every entry of the catalog, each plural form too, formatted with realistic values."""
    words = wording_for(resolve_locale(TAGS[language]))
    values = placeholder_values(words)
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    texts = []
    for message in catalog:
        if not message.id:
            continue
        strings = (message.string,) if isinstance(message.string, str) else message.string
        for string in strings:
            missing = set(PLACEHOLDER.findall(string)) - set(values)
            assert not missing, f"no test value for {missing} in {message.id!r}: add one to placeholder_values"
            texts.append(fill(string, values_for(message.id, values, words), words.style.decimal))
    return tuple(texts)


def seed(words: Wording) -> str:
    d, v, e = EXAMPLE
    return f"{words.number(d, 0)} {words.number(v)} {words.percent(e)}"


INPUTS = ["help", "64 2.000 90%", "64 2,000 90%", "64 1.234 90%", "64 2000 1", "64 2000 90", "64 2000 0.9",
          "64 2000 0,9", "64 2000 150%", "0 2000 90%", "64.5 2000 90%", "64% 2000 90%", "abc", "64 2000",
          "64 2000 90% 5", "64 2000 90% devices=3", "devices=", "64 2000x 90%", "64 ²000 90%",
          "64 2000 90% lang=xx", "64 2000 actual=115200", "throughput=2000 efficiency=90% actual=1M",
          "devices=64 efficiency=90% actual=115200", "1 2000 90%", "64 2000 actual=12.79", "64 2000 actual=200000",
          "1 200 300 90%", "x" * 600]


def payloads(language: str) -> list[tuple[dict[str, Any], int]]:
    """The real renderers' output for the catalog's Slack locale, each with its block limit."""
    locale = resolve_locale(TAGS[language])
    words = wording_for(locale)
    replies = [answer(text, locale) for text in [seed(words), *INPUTS]]
    replies += [build_error_reply(UserInputError(error, token="2.000", quantity=Quantity.EFFICIENCY.value, low="0.0001",
                                                 high="1", suggestions=("2", "2000")), locale) for error in ErrorCode]
    other = resolve_locale("en-US" if words.language.language != "en" else "de-DE")
    replies += [build_help_reply(locale), build_help_reply(Recipient.of(other).answering_in(locale)),
                share_failed_reply(locale), outdated_reply(locale),
                build_format_saved_reply("de-DE", locale), build_format_saved_reply(None, locale),
                build_unknown_format_reply("klingon", locale),
                shared_reply(answer(seed(words), locale), user_id="U0123ABCD", recipient=locale)]
    messages = [({"text": reply.text, "blocks": reply.blocks}, 50) for reply in replies]
    filled = {Quantity.DEVICES: words.number(EXAMPLE[0], 0), Quantity.EFFICIENCY: words.percent(EXAMPLE[2])}
    views = [form_view(locale, FormMetadata.of(locale, None)), form_view(locale, FormMetadata.of(locale, None), filled),
             home_view(locale)]
    extra = [{"blocks": build_format_blocks(None, locale)}, {"blocks": [direct_message_note(locale)]},
             {"blocks": [result_actions(recipient=locale, value="x")]}]
    return messages + [(view, MAX_VIEW_BLOCKS) for view in views] + [(block, 50) for block in extra]


def strings_in(payload: Any) -> list[str]:
    """Every `text` a payload shows (plain or mrkdwn, at any depth)."""
    if isinstance(payload, dict):
        found = [payload["text"]] if isinstance(payload.get("text"), str) else []
        return found + [s for key, value in payload.items() if key != "text" or not isinstance(value, str)
                        for s in strings_in(value)]
    if isinstance(payload, list):
        return [s for item in payload for s in strings_in(item)]
    return []


@lru_cache(maxsize=32)
def rendered(language: str) -> tuple[str, ...]:
    """Everything a user of the catalog can see: its entries filled in, and the real replies and views."""
    return catalog_texts(language) + tuple(s for payload, _ in payloads(language) for s in strings_in(payload))


def without_markup(text: str) -> str:
    """The prose of a text: code spans, emoji codes, links, mentions and HTML tags taken out."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    return re.sub(r":[a-z_]+:", " ", text)


def offending(language: str, pattern: str, transform=lambda t: t) -> list[str]:
    found = []
    for text in rendered(language):
        for match in re.finditer(pattern, transform(text)):
            start = max(0, match.start() - 25)
            found.append(transform(text)[start:match.end() + 25])
    return found


# --- the rules ----------------------------------------------------------------------------------------------------


def test_french_puts_a_narrow_no_break_space_before_high_punctuation_and_inside_guillemets():
    assert offending("fr", f"[^{NNBSP}][;:!?]", without_markup) == []
    assert offending("fr", f"«[^{NNBSP}]|[^{NNBSP}]»") == []
    assert offending("fr", r"\d(?:%| %)", without_markup) == []  # a no-break space between a number and its sign


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_no_ascii_space_follows_a_full_width_full_stop(language):
    assert offending(language, "[。！？] ") == []


CJK_LETTER = "[\u3040-\u30ff\u3400-\u9fff]"  # kana and Han: the letters of Japanese and Chinese prose


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_japanese_and_chinese_prose_has_no_ascii_parenthesis_or_comma(language):
    """`日本語（日本）`, `中文（简体，中国）`: no ASCII `(`, `)` or `,` beside a kana or Han character (Babel's display
    names wrote `中文 (简体, 中国)` into replies, the form and the menu), nor a space before the parenthesis."""
    assert offending(language, f"{CJK_LETTER} ?[(),]|[(),] ?{CJK_LETTER}", without_markup) == []


CJK_TEXT = "[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"  # kana, Han and full-width punctuation


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_bold_in_japanese_and_chinese_needs_no_ascii_space_inside_the_prose(language):
    """Slack draws `*bold*` only where each asterisk has a space, a line's edge or ASCII punctuation outside it:
    beside kana, Han or full-width punctuation the asterisks show. A bold span written with an ASCII space between
    it and Japanese or Chinese text (`*局限性：* 这是`, `下方的 *說明* 按鈕`) leaves a stray space in the prose, so
    a bold span stands on a line of its own, or after an emoji code, and names in running text take the language's
    quotation marks instead (`「說明」按鈕`)."""
    found = []
    for text in rendered(language):
        prose = re.sub(r"`[^`]*`", "C", text)
        for span in re.finditer(r"(?<![*\w])\*[^*\n]+\*(?![*\w])", prose):
            before, after = prose[max(0, span.start() - 2):span.start()], prose[span.end():span.end() + 2]
            if re.search(f"{CJK_TEXT} $|{CJK_TEXT}$", before) or re.match(f" {CJK_TEXT}|{CJK_TEXT}", after):
                found.append(prose[max(0, span.start() - 12):span.end() + 12])
    assert found == []


LIST_ITEM = r"[\w(][\w\-’'()]*(?: [\w\-’'()]+){0,2}"  # one to three words of a list in prose: `per-device throughput`
# "…, B and C" with no comma before the conjunction (not a clause: `, such as 2 and 3`, `, so …`)
NOT_AN_ITEM = r"(?!(?:such|so|which|for|like|write|and|or|but|with|as|then)\b)"
NO_SERIAL_COMMA = re.compile(rf", {NOT_AN_ITEM}({LIST_ITEM}) (?:and|or) ")
SERIAL_COMMA = re.compile(r"[\w\-’']+(?: [\w\-’']+){0,2}, [\w\-’']+(?: [\w\-’']+){0,2}, (?:and|or) ")


@pytest.mark.parametrize("language", ["en", "en_GB"])
def test_english_prose_lists_follow_the_locales_list_pattern(language):
    """CLDR's en-US list pattern has the serial comma ("8, 16, and 32"), en-GB's has not ("8, 16 and 32"); the
    lists written in the prose of each catalog follow the same pattern as those joined in code by Babel's
    `format_list`, so that one reply never mixes the two."""
    serial = format_list(["a", "b", "c"], locale=language) == "a, b, and c"
    found = []
    for text in rendered(language):
        prose = re.sub(r"`[^`]*`", "§", text)  # a code span is no word of a list
        pattern = NO_SERIAL_COMMA if serial else SERIAL_COMMA
        found += [prose[max(0, m.start() - 30):m.end() + 10] for m in pattern.finditer(prose)]
    assert found == []


def test_italian_counts_clusters_not_cluster_sizes():
    """"Efficienza di scaling misurata su 3 dimensioni del cluster" counted sizes like a spec sheet; Italian counts
    the clusters measured ("su 3 cluster di dimensioni diverse")."""
    assert offending("it", r"\d+ dimensioni del cluster") == []


def test_korean_shows_no_fallback_particle():
    particles = r"을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|와\(과\)|과\(와\)|\(으\)|\(이\)"
    assert offending("ko", particles) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_particle_marker_is_left_visible(language):
    """`{quantity}{은/는}` in a catalog is filled with 은 or 는 (bot/replies/particles.py): never shown as written."""
    assert offending(language, MARKER.pattern) == []
    assert offending(language, r"[은는이가을를과와로라]/[은는이가을를과와로라]") == []


def test_korean_reading_notes_open_on_the_token_not_on_a_value_crutch():
    """A particle cannot follow a code span in Slack, so the 🔍 notes once read "`12,5` 값은 … 읽었습니다", a noun put
    there only to carry the particle; they now open on the token as a label (":mag: `12,5`: … 12.5%로 읽었습니다")."""
    assert offending("ko", r":mag: `[^`]+` 값[은을이]") == []
    assert offending("ko", r":mag: `[^`]+`: ") != []


def test_korean_particles_fit_the_values_they_follow():
    """Each marker became the form its value takes: after a vowel 는 가 를 와 로 라, after a consonant the others."""
    wrong = (r"(?:효율|처리량)(?:는|가|를|와|라)(?![가-힣])|효율으로|처리량로"
             r"|(?:디바이스|디바이스 수|%|한국어|×)(?:은|이|을|과|으로)(?![가-힣])")
    assert offending("ko", wrong) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_code_span_never_touches_a_letter(language):
    """Slack draws `code` only at a word boundary: a particle or word glued to a backtick shows the backticks."""
    glued = []
    for text in rendered(language):
        for span in re.finditer(r"`[^`]+`", text):
            before, after = text[span.start() - 1:span.start()], text[span.end():span.end() + 1]
            if before.isalnum() or after.isalnum():
                glued.append(text[max(0, span.start() - 15):span.end() + 15])
    assert glued == []


def glossary_table(language: str) -> list[tuple[str, str, list[str]]]:
    """The glossary's *One spelling* table: (term, the spelling used, spellings not used)."""
    lines = (LOCALES_DIR / language / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(lines) if re.match(r"\|\s*Term\s*\|\s*Used\s*\|\s*Not used\s*\|", line))
    rows = []
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        term, used, unused = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows.append((term, used, [item.strip() for item in unused.split(",") if item.strip()]))
    return rows


def spelled(item: str) -> re.Pattern[str]:
    """`item` as a whole word where it begins or ends with a Latin letter (`format de nombre` is not in `format de
    nombres`); as it stands in scripts without spaces between words."""
    latin = "A-Za-zÀ-ÖØ-öø-ɏ"
    before = f"(?<![{latin}])" if re.match(f"[{latin}]", item) else ""
    after = f"(?![{latin}])" if re.search(f"[{latin}]$", item) else ""
    return re.compile(before + re.escape(item) + after)


@pytest.mark.parametrize("language", [name for name in LANGUAGES if name != "en"])
def test_each_glossary_term_has_one_spelling(language):
    table = glossary_table(language)
    assert table, f"locales/{language}/GLOSSARY.md has no One spelling table"
    texts = rendered(language)
    for term, used, unused in table:
        assert any(spelled(used).search(text) for text in texts), f"{term}: {used!r} is not used"
        for item in unused:
            found = [text for text in texts if spelled(item).search(text)]
            assert found == [], f"{term}: {item!r} is written instead of {used!r}: {found[0][:120]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_placeholder_is_filled_with_its_value(language):
    words = wording_for(resolve_locale(TAGS[language]))
    values = placeholder_values(words)
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    for message in catalog:
        if not message.id:
            continue
        strings = (message.string,) if isinstance(message.string, str) else message.string
        for string in strings:
            text = fill(string, values_for(message.id, values, words), words.style.decimal)
            assert "{" not in text and "}" not in text, message.id
            source = message.id if isinstance(message.id, str) else message.id[-1]
            for name in PLACEHOLDER.findall(source):
                assert values_for(message.id, values, words)[name] in text, (message.id, name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rendered_payload_fits_slacks_limits(language):
    for payload, most in payloads(language):
        assert_within_limits(payload["blocks"], max_blocks=most)
        for element in (e for block in payload["blocks"] for e in block.get("elements", [])):
            if element.get("type") == "button":
                assert len(element["text"]["text"]) <= 75
        for key in ("title", "submit", "close"):
            if key in payload:
                assert len(payload[key]["text"]) <= TITLE_LIMIT
        assert len(payload.get("text", "")) < 3000
        json.dumps(payload, ensure_ascii=False)


def test_samples_directory_is_where_the_renderer_writes():
    assert (Path(__file__).resolve().parent.parent / "docs" / "samples" / "fr.txt").exists()
