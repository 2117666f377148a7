"""Issue #26, the rest of the pages: the lobby (its index, an open game's page for its creator and for a
stranger, the form that opens one, the emailed confirmation's page), the leaderboard (rated and
cooperative), the account pages reached from a game page, the rematch page (ask, asked, accept) and the
dev mailbox follow the reader's language, and rendered in Ukrainian and Traditional Chinese hold no
English word but names, addresses and capitals (tests/i18n/test_pages_words.py `check`: the games' own
words taken out by their markup, the adapters' titles, modes and counts allowed as the adapters' words).

Also the words made below the web layer without a language (service/lang.py `Words`): a handover's
vote and its outcome, a webhook's URL problem and test result, bounce reasons, the invitation notes, the
API token errors, the history's range errors and the open game's errors with numbers in them: each is
said in the reader's language, its numbers and names put in."""

from __future__ import annotations

import mailbox
import re
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
import sqlalchemy as sa

from service import lang, links
from service.lang import Nf_, Nn_, Words, in_language
from service.mail import outbox as mail_outbox
from service.mail import webhooks
from service.people import languages
from service.people.channels import checked_url
from service.play import ending, handover, new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Game, Joining, OpenGame, Outbox, Player, utcnow
from service.views import bounced
from tests import tokens
from tests.consent import preconsent
from tests.i18n.test_no_english import HEADERS, english_words, game_titles, get, post
from tests.i18n.test_pages_words import check
from tests.people.helpers import sign_in_as
from tests.service import toygame
from tests.service.helpers import play_to_end
from tests.web.pages import csrf_token, text

LANGUAGES = ["uk", "zh_Hant"]
ANN, BO = "ann@example.org", "bo@example.org"
# Names the pages show as they are: the players', the toy game's title (a test adapter), the rating
# model's and its library's names.
NAMES = {"Ann", "Bob", "Bo", "Toy", "Plackett-Luce", "openskill"}
MASKED = {"a***@example.org", "b***@example.org"}  # addresses as pages show them
# A word of each page in each language: which language a page speaks.
SAID = {
    "en": {"lobby": "The lobby: games waiting for players", "leaderboard": "Riftforce leaderboard",
           "again": "Accept and play again", "new": "Who may join"},
    "uk": {"lobby": "Лобі: ігри, що чекають на гравців", "leaderboard": "Таблиця лідерів Riftforce",
           "again": "Погодитися й зіграти ще раз", "new": "Хто може приєднатися"},
    "zh_Hant": {"lobby": "大廳：等待玩家的遊戲", "leaderboard": "Riftforce 排行榜", "again": "接受並再玩一局",
                "new": "誰可以加入"},
}


def _signed_out(client) -> None:
    with client.session_transaction() as session:
        session.clear()
    from flask import g
    g.pop("csrf_token", None)


def _open(client, headers) -> OpenGame:
    sign_in_as(client, ANN)
    page = text(get(client, "/lobby/new/riftforce", headers=headers))
    answer = post(client, "/lobby/new/riftforce", headers=headers, data={
        "csrf_token": csrf_token(page), "name": "Ann", "deadline": "48", "listed": "yes"})
    assert answer.status_code == 303, text(answer)
    with read_session(get_engine()) as session:
        return session.execute(sa.select(OpenGame).order_by(OpenGame.id.desc())).scalars().first()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_pages_hold_no_english(language, app, client):
    headers = HEADERS[language]
    preconsent(ANN)
    pages = {}
    sign_in_as(client, ANN)
    pages["new"] = text(get(client, "/lobby/new/riftforce", headers=headers))
    # Refused: a name with a link in it, and a deadline that is no number; said in the reader's language.
    # (A player count the mode does not take is also refused by the adapter's own form check, in the
    # adapter's English words: the games' words, another part of the issue.)
    refused = post(client, "/lobby/new/riftforce", headers=headers, data={
        "csrf_token": csrf_token(pages["new"]), "name": "Ann.b", "deadline": "soon", "listed": "yes"})
    assert refused.status_code == 422
    pages["new, refused"] = text(refused)
    opened = _open(client, headers)
    game_path = f"/lobby/{opened.id}/{opened.key}"
    pages["creator"] = text(get(client, game_path, headers=headers))  # the flash, the link to share, cancel
    pages["index"] = text(get(client, "/lobby", headers=headers))
    _signed_out(client)
    pages["stranger"] = text(get(client, game_path, headers=headers))
    bad = post(client, game_path + "/ask", headers=headers,
               data={"csrf_token": csrf_token(pages["stranger"]), "email": "not an address", "name": "Bo"})
    assert bad.status_code == 422
    pages["stranger, bad address"] = text(bad)
    pages["asked"] = text(post(client, game_path + "/ask", headers=headers, data={
        "csrf_token": csrf_token(pages["stranger"]), "email": BO, "name": "Bo"}))
    with read_session(get_engine()) as session:
        row = session.execute(sa.select(Outbox).where(Outbox.kind == "lobby_join")).scalar_one()
        joining = session.get(Joining, row.params["joining"])
    confirm_path = "/lobby/confirm/" + links.lobby_join_token(joining.id, joining.nonce)
    pages["confirm"] = text(get(client, confirm_path, headers=headers))
    confirmed = post(client, confirm_path, headers=headers, data={"csrf_token": csrf_token(pages["confirm"])})
    assert confirmed.status_code == 303
    pages["started"] = text(get(client, game_path, headers=headers))
    said = SAID[language]
    assert said["lobby"] in pages["index"] and said["new"] in pages["new"]
    shared = re.search(r'<p class="share-link">[^<]*<a href="([^"]+)"', pages["creator"]).group(1)
    check(pages, language, game_titles() | NAMES | {shared, "Ann.b"})


def _rated_game() -> int:
    preconsent(ANN, "bob@example.org")
    game_id = new_game("riftforce", [("Ann", ANN), ("Bob", "bob@example.org")], seed=1)
    with write_session(get_engine()) as session:
        session.execute(sa.update(Game).where(Game.id == game_id).values(
            status="finished", result={"winners": [0], "scores": {"0": 12, "1": 7}}))
    ending.record_end(game_id, utcnow())
    return game_id


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leaderboard_the_account_pages_and_the_dev_mailbox_hold_no_english(language, app, client):
    headers = HEADERS[language]
    app.config["RATING_MIN_GAMES"] = 1
    game_id = _rated_game()
    with read_session(get_engine()) as session:
        ann = session.execute(sa.select(Player).where(Player.game_id == game_id, Player.seat == 0)).scalar_one()
    path = f"/p/{tokens.page(ann)}"
    pages = {
        "leaderboard": text(get(client, "/leaderboard/riftforce", headers=headers)),
        "leaderboard, cooperative": text(get(client, "/leaderboard/beyond-the-rift", headers=headers)),
        "account": text(get(client, path + "/account", headers=headers)),
        "account, never": text(get(client, path + "/account?why=never", headers=headers)),
        "never": text(get(client, f"/never/{links.never_email_token(ANN)}", headers=headers)),
        "dev mailbox, empty": text(get(client, "/dev/mail/", headers=headers)),
    }
    assert "<td>Ann</td>" in pages["leaderboard"] and SAID[language]["leaderboard"] in pages["leaderboard"]
    page = pages["account"]
    pages["sign-in link sent"] = text(post(client, path + "/signin", headers=headers,
                                           data={"csrf_token": csrf_token(page)}))
    fresh = post(client, path + "/fresh-link", headers=headers, data={"csrf_token": csrf_token(page), "scope": "all"})
    pages["fresh links sent"] = text(fresh)
    message = EmailMessage()
    message["Subject"], message["To"] = "Riftforce #1", ANN
    message.set_content("Riftforce")
    message.add_alternative("<p>Riftforce</p>", subtype="html")
    key = mailbox.Maildir(app.config["MAILDIR"], create=True).add(message)
    pages["dev mailbox"] = text(get(client, "/dev/mail/", headers=headers))
    pages["dev mailbox, a message"] = text(get(client, f"/dev/mail/{key}", headers=headers))
    # (the message's headers' names are the email's own: From, To, Date, Message-ID ...)
    headers_table = r'(?s)<table class="mail-headers">.*?</table>'
    pages["dev mailbox, a message"] = re.sub(headers_table, " ", pages["dev mailbox, a message"])
    check(pages, language, game_titles() | NAMES | MASKED)


def _finished_toy() -> list[Player]:
    preconsent(ANN, "bob@example.org")
    game_id = new_game(toygame.NAME, [("Ann", ANN), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
    play_to_end(game_id)
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Player).where(Player.game_id == game_id).order_by(Player.seat)).scalars())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rematch_page_and_its_flashes_hold_no_english(language, app, client):
    headers = HEADERS[language]
    ann, bob = _finished_toy()
    pages = {"ask": text(get(client, f"/p/{tokens.page(ann)}/again", headers=headers))}
    refused = post(client, f"/p/{tokens.page(ann)}/again", headers=headers,
                   data={"csrf_token": csrf_token(pages["ask"]), "seating": "sideways"})
    assert refused.status_code == 422
    pages["refused"] = text(refused)
    asked = post(client, f"/p/{tokens.page(ann)}/again", headers=headers,
                 data={"csrf_token": csrf_token(pages["ask"]), "seating": "swapped"})
    assert asked.status_code == 303
    pages["asked"] = text(get(client, f"/p/{tokens.page(ann)}/again", headers=headers))  # the flash, who is to accept
    pages["accept"] = text(get(client, f"/p/{tokens.page(bob)}/again", headers=headers))
    assert SAID[language]["again"] in pages["accept"]
    accepted = post(client, f"/p/{tokens.page(bob)}/again/accept", headers=headers,
                    data={"csrf_token": csrf_token(pages["accept"])})
    assert accepted.status_code == 303
    pages["started"] = text(get(client, f"/p/{tokens.page(bob)}/again", headers=headers))
    assert "/p/" in pages["started"] and ("#" in pages["started"])
    check(pages, language, game_titles() | NAMES)


def test_the_pages_follow_the_setting_before_the_header_and_english_without_either(app, client):
    opened_by = _open(client, {})
    game_path = f"/lobby/{opened_by.id}/{opened_by.key}"
    assert SAID["en"]["lobby"] in text(get(client, "/lobby"))
    assert SAID["uk"]["lobby"] in text(get(client, "/lobby", headers=HEADERS["uk"]))
    languages.choose(ANN, "zh_Hant", datetime.now(UTC))
    for path, page in (("/lobby", "lobby"), ("/lobby/new/riftforce", "new")):
        assert SAID["zh_Hant"][page] in text(get(client, path, headers=HEADERS["uk"])), path
    assert "分享的連結" in text(get(client, game_path, headers=HEADERS["uk"])) or "分享" in text(get(client, game_path))
    _signed_out(client)
    assert "Vary" in get(client, "/leaderboard/riftforce", headers=HEADERS["uk"]).headers
    assert SAID["uk"]["leaderboard"] in text(get(client, "/leaderboard/riftforce", headers=HEADERS["uk"]))
    assert SAID["en"]["leaderboard"] in text(get(client, "/leaderboard/riftforce"))


# ---- words made below the web layer ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_words_made_below_the_web_are_said_in_the_readers_language_with_their_numbers(language, app):
    with app.app_context():
        said = []
        # A handover's votes and outcomes (service/play/handover.py), nested words included.
        said.append(in_language(handover.BOT_WORDS["normal"], language))
        said.append(in_language(Nf_("Everyone agreed: %(bot)s plays that seat from now on.",
                                    bot=handover.BOT_WORDS["normal"]), language))
        said.append(in_language(Nf_("invite %(address)s", address="b***@example.org"), language))
        # A webhook's URL problem (service/people/channels.py) with the refusal's words inside it.
        with pytest.raises(Exception) as refused:
            checked_url("https://10.0.0.1/hook")
        said.append(in_language(refused.value.message, language))
        with pytest.raises(Exception) as too_long:
            checked_url("https://example.org/" + "x" * 3000)
        said.append(in_language(too_long.value.message, language))
        assert "3000" not in said[-1] and re.search(r"\d", said[-1])
        # A webhook test's result, from the delivery's own exception words.
        said.append(in_language(Nf_("The test did not go through: %(why)s.",
                                    why=Nf_("the webhook answered HTTP %(status)s", status=503)), language))
        assert "503" in said[-1]
        # Bounce reasons and the mail trouble's words (marked N_ where made).
        said += [in_language(bounced.words(code), language) for code in ("5.1.1", "4.2.2", "5.7.1", "4.9.9", "")]
        said += [in_language(mail_outbox.plain_words(error), language)
                 for error in ("SMTPRecipientsRefused: x", "SMTPDataError: (550, b'no')", "TimeoutError", "")]
        # An API token's errors, counted in the reader's plural forms.
        for num in (1, 3, 5, 21):
            said.append(in_language(Nn_("You have %(num)d token: revoke it first if you no longer use it.",
                                        "You have %(num)d tokens: revoke one you no longer use first.", num), language))
            assert str(num) in said[-1]
        for text_ in said:
            assert english_words(text_, MASKED) == [], text_
        assert isinstance(webhooks.literal_refusal("10.0.0.1"), Words)


def test_words_keep_their_english_as_a_string_and_pickle_whole(app):
    import pickle
    words = Nn_("%(num)d seat", "%(num)d seats", 3, name="Ann")
    assert words == "3 seats" and str(words) == "3 seats" and in_language(words, lang.ENGLISH) == "3 seats"
    again = pickle.loads(pickle.dumps(words))
    assert again == "3 seats" and again.params == {"num": 3, "name": "Ann"} and again.plural == "%(num)d seats"


@pytest.mark.parametrize("language", LANGUAGES)
def test_errors_with_numbers_on_pages_are_in_the_readers_language(language, app, client):
    """The history's range errors, a token's name, a webhook URL: 4xx pages whose message has numbers."""
    headers = HEADERS[language]
    game_id = _rated_game()
    with read_session(get_engine()) as session:
        ann = session.execute(sa.select(Player).where(Player.game_id == game_id, Player.seat == 0)).scalar_one()
    pages = {}
    for at in ("x", "999"):
        answer = get(client, f"/p/{tokens.page(ann)}/history?at={at}", headers=headers)
        assert answer.status_code in (400, 404)
        pages[f"history at={at}"] = text(answer)
    sign_in_as(client, ANN)
    settings = text(get(client, "/settings", headers=headers))
    token = post(client, "/settings/tokens", headers=headers, data={"csrf_token": csrf_token(settings), "name": ""})
    assert token.status_code == 422
    pages["token without a name"] = text(token)
    channels = text(get(client, "/settings/channels", headers=headers))
    hook = post(client, "/settings/channels/webhooks", headers=headers,
                data={"csrf_token": csrf_token(channels), "url": "https://127.0.0.1/x", "shape": "generic"})
    assert hook.status_code == 422
    pages["webhook at a loopback address"] = text(hook)
    # (the query parameter's name, 'at', as the address has it; the chat services' names)
    check(pages, language, game_titles() | NAMES | {"'at'", "Discord", "Slack", "https://"})
    assert "999" in pages["history at=999"]
