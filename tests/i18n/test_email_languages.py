"""Issue #26 for the emails: every email is worded in its reader's language, chosen when it is rendered
(the reader's setting; an invitation to someone without one: the inviter's; else English), never
carried by a link; plurals by CLDR (Ukrainian's three forms), dates and lists by Babel.

The game's words are worded in the reader's language (issue #26, the wiring): the since lines, the
first line's summary, the choices, results and subjects are checked.  What is still English is marked
(`lang="en"`, service/views/email_render.py `english`): the boards (left out here by the catalog's
`board=False`), the lines and choices of the tests' toy games (no message catalog: `words_english`), an
older row's timed-out moves; the check below strips exactly the marked elements and then finds no English
word outside an explicit list of names; the plain part is checked after taking out the same marked
texts."""

from __future__ import annotations

import html as htmlmod
import re
from email.message import EmailMessage
from unittest import mock

import pytest
import sqlalchemy as sa
from markupsafe import Markup

import engine
from service import store
from service.mail import compose, kinds
from service.people import languages
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Outbox, utcnow
from service.views import email_render, positions
from service.views.positions import Position
from tests.consent import preconsent
from tests.service.email_catalog import T0, catalog  # noqa: F401  # the module's fixture
from tests.service.helpers import outbox_rows

# Names: the service's, the games', the players' of the catalog and these tests, the time zones'.
NAMES = {"Riftpost", "Rift", "Riftforce", "Riftwalker", "Beyond", "the", "Toy", "Ana", "Bo", "Cy", "Di", "Eve",
         "Ann", "Europe", "Paris", "UTC", "Kyiv", "Taipei", "Asia"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
# Every game's title is a name too ("Riftforce duel"): the words of the engines' titles.
NAMES |= {word for name in engine.names() for word in WORD.findall(engine.get(name).title or name)}
# (The games' modes as an inviter's record names their ratings, "Riftforce duel 1500": worded in the
# reader's language since issue #26's start words, service/views/profile.py; checked like any word.)
URL = re.compile(r"(?:https?://|mailto:)\S+|\S+@\S+")
HEX = re.compile(r"\b[0-9a-f]{16,}\b")
# Marked: the game's words (lang="en") and what people typed, in a language nobody knows (lang="").
MARKED = re.compile(r'<(\w+)[^>]*\blang="(?:en)?"[^>]*>(.*?)</\1>', re.S)


def body(message: EmailMessage, kind: str) -> str:
    return message.get_body((kind,)).get_content()


def marked_texts(html: str) -> list[str]:
    """The texts of the elements marked English, innermost tags removed, as the plain part says them."""
    found = []
    for match in MARKED.finditer(html):
        for piece in re.split(r"<li[^>]*>|</li>|<br>", match.group(2)):
            text = htmlmod.unescape(re.sub(r"<[^>]+>", "", piece)).strip()
            if text:
                found.append(text)
    return found


def english_words(text: str) -> list[str]:
    text = URL.sub(" ", HEX.sub(" ", text))
    words = [w for w in WORD.findall(text) if w not in NAMES and not (w.isupper() and len(w) <= 5)]
    return sorted(set(words))


def leftover_english(message: EmailMessage) -> tuple[list[str], list[str]]:
    """The English words of the HTML part outside its marked elements (and outside <head>, <code>), and
    of the plain part once the marked texts are taken out."""
    html = body(message, "html")
    marked = marked_texts(html)
    # The hidden preview repeats the first line, which the lead shows marked: checked there.
    preview = re.search(r'<div class="preheader"[^>]*>(.*?)[\u2007]', html, re.S)
    lead = re.search(r'<p class="lead"[^>]*>(.*?)</p>', html, re.S)
    assert preview and lead
    assert htmlmod.unescape(preview.group(1)).strip() == htmlmod.unescape(re.sub(r"<[^>]+>", "", lead.group(1))).strip()
    stripped = re.sub(r'<head>.*?</head>|<code>.*?</code>|<div class="preheader"[^>]*>.*?</div>', " ", html, flags=re.S)
    while MARKED.search(stripped):
        stripped = MARKED.sub(" ", stripped)
    stripped = htmlmod.unescape(re.sub(r"<[^>]+>", " ", stripped))
    text = body(message, "plain")
    for part in sorted(marked, key=len, reverse=True):
        text = text.replace(part, " ")
    return english_words(stripped), english_words(text)


def render(cat, row_id: int, locale: str) -> EmailMessage:
    """The row's email in `locale`, without its boards (the game's words, drawn by the board templates)."""
    with cat.app.app_context(), read_session(get_engine()) as session:
        row = session.get(Outbox, row_id)
        build = positions.build

        def without_board(*args, **kwargs):
            position = build(*args, **kwargs)
            position.board_text = ""
            return position

        with mock.patch.object(Position, "board_html", lambda self, email=False: Markup("")), \
                mock.patch.object(positions, "build", without_board):
            return compose.build(session, row, locale=locale)


# ---- one game, two languages ----------------------------------------------------------------------------

def deliver(game_id: int) -> None:
    from service.mail import outbox

    for row in outbox_rows(game_id):
        if row.status == "pending":
            outbox.deliver(row.id)


def test_the_two_players_of_one_duel_read_its_emails_each_in_their_own_language(app, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "bo@example.org")
    languages.choose("ann@example.org", "uk", utcnow())
    languages.choose("bo@example.org", "zh-Hant", utcnow())
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=5,
                       deadline_hours=48, now=T0)
    deliver(game_id)
    mails = sink.wait_for(2)
    ann = next(m for m in mails if m["To"].endswith("ann@example.org>") or m["To"] == "ann@example.org")
    bo = next(m for m in mails if m is not ann)
    ann_text, bo_text = body(ann, "plain"), body(bo, "plain")
    # Ann started the game and moves first: her first turn email, in Ukrainian, with the deadline in
    # Babel's Ukrainian form (a date of the reader's locale, not an English one).
    assert ann_text.splitlines()[0].startswith("Ваша гра Riftforce почалася; з вами грають: Bo. Ваш хід, до ")
    assert re.search(r"до \w+, \d+ \w+\. 2026\sр\., \d\d:\d\d", ann_text.splitlines()[0]), ann_text.splitlines()[0]
    assert "Сторінка вашої гри:" in ann_text and "Ніколи не надсилати мені листів:" in ann_text
    assert 'lang="uk"' in body(ann, "html") and "Сторінка вашої гри" in body(ann, "html")
    # Bo waits: the game's first email to him, in Traditional Chinese.
    assert bo_text.splitlines()[0] == "Ann 邀請你玩一局 Riftforce。由 Ann 先出牌；輪到你時，我們會寄信給你。"
    assert "你的遊戲頁面：" in bo_text and "永遠不要寄信給我：" in bo_text
    assert 'lang="zh-Hant"' in body(bo, "html")
    # The thread's subject names the game and its players, each reader's "vs" in their language (the
    # adapter's words, issue #26): one subject per reader's thread.
    assert ann["Subject"] == f"Riftforce #{game_id}: Ann проти Bo"
    assert bo["Subject"] == f"Riftforce #{game_id}: Ann 對 Bo"
    # The language is in no link: the same row rendered in English links the same pages.
    with read_session(get_engine()) as session:
        row = next(r for r in outbox_rows(game_id) if r.player_id == store.players_of(session, game_id)[0].id)
        english = compose.build(session, session.get(Outbox, row.id), locale="en")
    # A signed token ends in the second it was signed and its signature: compare what it says (the part
    # before them), so rendering across a second's edge cannot fail the test.
    links = re.compile(r"https?://\S+")

    def said(text: str) -> list[str]:
        return sorted(re.sub(r"([\w-]{8,})\.[\w-]{6}\.[\w-]{27}", r"\1", link) for link in links.findall(text))

    assert said(body(english, "plain")) == said(ann_text)
    assert english.get_body(("plain",)).get_content().splitlines()[0].startswith("Your game of Riftforce with Bo")


def test_an_invitation_is_in_the_inviters_language_unless_the_reader_chose_one(app, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org")
    languages.choose("ann@example.org", "uk", utcnow())
    first = new_game("riftforce", [("Ann", "ann@example.org"), ("Eve", "eve@example.org")], seed=5)
    deliver(first)
    (invitation,) = [m for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "invitation"]
    assert invitation["Subject"] == "Ann запрошує вас зіграти в Riftforce"
    assert body(invitation, "plain").splitlines()[0] == "Ann запрошує вас зіграти в Riftforce поштою на Riftpost."
    # Once Eve chose her own language, hers wins (asked when the email is rendered, not stored).
    languages.choose("eve@example.org", "zh_Hant", utcnow())
    second = new_game("riftforce", [("Ann", "ann@example.org"), ("Eve", "eve2@example.org")], seed=6)
    languages.choose("eve2@example.org", "zh_Hant", utcnow())
    deliver(second)
    later = [m for m in sink.wait_for(4) if m["X-Riftpost-Kind"] == "invitation" and "eve2" in m["To"]]
    assert later and later[0]["Subject"] == "Ann 邀請你玩 Riftforce"


@pytest.mark.parametrize(("count", "form"), [(1, "година"), (2, "години"), (5, "годин"), (21, "година"),
                                             (22, "години"), (11, "годин")])
def test_ukrainian_counts_take_cldrs_three_forms(count, form):
    clock = {"hours": count, "due_local": None, "stopped": None, "policy_words": "", "time_zone": "UTC"}
    text = email_render.render("email/_clock.txt", {"clock": clock, "player_url": "x"}, "uk")
    assert f"На кожен хід — {count} {form}." in text
    with email_render.reading_in("uk"):
        line = kinds.get("reminder").first_line({"clock": {"due_local": "пн, 23 лист. 2026 р., 09:00 UTC"},
                                                 "reminder_hours": count, "title": "Riftforce",
                                                 "game": mock.Mock(id=3)})
    assert f"(приблизно за {count} {dict(година='годину').get(form, form)})" in line
    with email_render.reading_in("zh_Hant"):
        assert email_render.ngettext("%(num)d game awaits your move.", "%(num)d games await your move.",
                                     count) == f"有 {count} 場遊戲在等你出牌。"


def test_lists_and_dates_are_the_readers_locales():
    with email_render.reading_in("uk"):
        assert email_render.and_list(["Bo", "Cy", "Di"]) == "Bo, Cy і Di"
    with email_render.reading_in("zh_Hant"):
        assert email_render.and_list(["Bo", "Cy", "Di"]) == "Bo、Cy和Di"
    assert email_render.and_list(["Bo", "Cy", "Di"]) == "Bo, Cy and Di"  # outside a render: English


def test_the_email_renderer_needs_no_flask_request_nor_app():
    import flask

    assert not flask.has_app_context() and not flask.has_request_context()
    out = email_render.render("email/_reply.txt", {"reply_address": "x"}, "zh_Hant")
    assert out.startswith("回覆選項的編號或走法即可出牌")


# ---- every kind of email, in Ukrainian and Traditional Chinese ------------------------------------------

def test_every_kind_of_email_has_no_english_outside_names_and_the_marked_game_words(catalog):
    from tests.service.email_snapshot import extra

    extra(catalog)  # the kinds the catalog's games do not send: invitations, digests, lobby, rematch, handover...
    samples = catalog.kinds(turns=1)
    seen_kinds = {s.kind for s in samples}
    assert {"invite", "turn", "reminder", "notice", "timed_out", "game_over", "fresh_link", "invitation", "talk",
            "account_link", "partner", "lobby_join", "lobby_expired", "rematch", "seat_invitation",
            "seat_handed_over", "seat_taken"} <= seen_kinds, seen_kinds
    problems = []
    for locale in ("uk", "zh_Hant"):
        for sample in samples:
            message = render(catalog, sample.row_id, locale)
            in_html, in_text = leftover_english(message)
            if in_html or in_text:
                problems.append(f"{locale} {sample!r}: html {in_html} text {in_text}")
            # A thread's subject ("Riftwalker #4: Ana, Bo і Cy") is the game's name and the adapter's
            # words for its players, in the reader's language: checked whole.
            subject = message["Subject"]
            if english_words(subject):
                problems.append(f"{locale} {sample!r}: subject {message['Subject']!r}")
    # The timeouts' digest and the daily digest (kinds of their own builders).
    from service.mail import digest

    with read_session(get_engine()) as session:
        turns = [s for s in catalog.of(kind="turn", game="riftwalker 3") if s.seat == 0][-2:]
        mails = [compose.mail_of(session, session.get(Outbox, s.row_id)) for s in turns]
        for locale in ("uk", "zh_Hant"):
            found = leftover_english(digest.build(session, mails, locale))
            if any(found):
                problems.append(f"{locale} timeouts digest: {found}")
        row = session.execute(sa.select(Outbox).where(Outbox.kind == "digest")).scalars().first()
        assert row is not None
        for locale in ("uk", "zh_Hant"):
            found = leftover_english(compose.build(session, row, locale=locale))
            if any(found):
                problems.append(f"{locale} daily digest: {found}")
    assert not problems, "\n".join(problems)
