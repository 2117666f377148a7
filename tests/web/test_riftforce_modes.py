"""Riftforce team play (3-4 players) and solo against the trainer in the service: the start form's
and the CLI's options with their validation, the board pages per seat and for spectators (no hand
but one's own, a teammate's included), and the emails of the modes (a partner's moves told in the
teammate's next turn email, the solo player's turn emails with what the trainer did)."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import select

import engine
from engine.riftforce.cards import GUILD_NAME
from service import links, store
from service.mail import compose as mail
from service.mail import outbox
from service.play import new_game
from service.play.timeouts import sweep
from service.store import get_engine, read_session
from service.store.models import Outbox, Player, utcnow
from tests import tokens
from tests.consent import confirm_creator, preconsent
from tests.riftforce_helpers import fast
from tests.service.helpers import current, outbox_rows, play_one
from tests.web.pages import START_FORM, csrf_token, move_values, text

RULES = engine.get("riftforce")
FOUR = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cat", "cat@example.org"),
        ("Dan", "dan@example.org")]
CARD_ID = re.compile(r"\b[a-z]+-[567][a-d]\b")


def play_until(game_id, stop, limit=400):
    for _ in range(limit):
        game, state = current(game_id)
        if stop(game, state):
            return game, state
        seat = game.to_act[0]
        play_one(game_id, lambda moves, s=state, seat=seat: fast(s, seat, moves))
    raise AssertionError("the game did not get there")


def seats(game_id) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def hand_section(page: str) -> str:
    found = re.search(r"Your hand \(\d+\)</h3>(.*?)</p>", page, re.S)
    return found.group(1) if found else ""


def board_of(page: str) -> str:
    """The board section of a page."""
    found = re.search(r'<section aria-labelledby="board-h"[^>]*>(.*?)</section>', page, re.S)
    assert found, "the page has no board"
    return found.group(1)


def hand_cards(page: str) -> list[str]:
    """The cards of the hand the board draws, in words (each card's aria-label)."""
    return sorted(re.findall(r'aria-label="([^"]+)"', hand_section(page)))


def names_of(cards) -> list[str]:
    view = [f"{c.split('-')[0].capitalize()} {c.split('-')[1][0]}" for c in cards]
    return sorted(view)


# ---- creation: the form and the CLI ---------------------------------------------------------------

def form_data(client, **fields):
    data = {"csrf_token": csrf_token(text(client.get(START_FORM))), "game": "riftforce"}
    data.update(fields)
    return data


def test_start_form_offers_the_modes_and_creates_team_and_solo_games(client):
    page = text(client.get("/games/new/riftforce"))  # the duel, the default: only its options
    for needle in ('name="mode" value="duel"', 'name="show_mode" value="duel" formnovalidate aria-pressed="true"',
                   'name="show_mode" value="team"', "Team play<span class=\"mode-count\">3 or 4 players</span>",
                   "Solo<span class=\"mode-count\">1 player</span>", 'name="guilds"', 'id="email1"'):
        assert needle in page, needle
    for absent in ('name="stars6"', 'name="trainer"', 'name="and_number"', 'id="email2"', 'name="options"'):
        assert absent not in page, absent
    page = html.unescape(text(client.get("/games/new/riftforce?mode=solo")))
    for needle in ('name="mode" value="solo"', 'name="stars6"', "4-star card text is unverified", 'name="and_number"',
                   'name="and_end"', 'name="trainer_fire"', "The trainer's 4 guilds, from those you do not keep",
                   'name="trainer" value="choose" checked', "You choose them after you keep your 4 (the rule)",
                   'name="trainer" value="random"', 'name="trainer" value="named"'):
        assert needle in page, needle
    assert '<label for="stars5">' in page and '<label for="and_end">' in page  # labelled controls
    assert 'id="email0"' in page and 'id="email1"' not in page and 'name="guilds"' not in page
    team_page = text(client.get("/games/new/riftforce?mode=team"))
    assert 'id="email3"' in team_page and "players 1 and 3 are one team" in team_page.lower()

    team = client.post("/games/new", data=form_data(
        client, mode="team", **{f"email{i}": e for i, (_, e) in enumerate(FOUR)}))
    assert team.status_code == 303, text(team)
    team_id = int(team.headers["Location"].split("/")[-2])
    assert current(team_id)[0].options == {"mode": "team"}

    three = client.post("/games/new", data=form_data(
        client, mode="team", **{f"email{i}": e for i, (_, e) in enumerate(FOUR[:3])}))
    assert three.status_code == 303

    solo = client.post("/games/new", data=form_data(
        client, mode="solo", email0="sol@example.org", stars5="2", stars6="4", stars7="1",
        and_number="6", and_end="B", trainer="named", trainer_fire="on", trainer_water="on",
        trainer_ice="on", trainer_plant="on"))
    assert solo.status_code == 303, text(solo)
    game, state = current(int(solo.headers["Location"].split("/")[-2]))
    assert game.options == {"mode": "solo", "stars": {"5": 2, "6": 4, "7": 1},
                            "and": {"number": 6, "end": "B"},
                            "trainer_guilds": ["fire", "water", "ice", "plant"]}
    # Rules §11: the trainer's guilds are given after the keep, so none yet.
    assert "trainer" not in state["draft"] and len(state["draft"]["offer"]) == 6

    # Nothing chosen: the player chooses after the keep (the default); the & card left at None: no & card.
    chosen_later = client.post("/games/new", data=form_data(client, mode="solo", email0="s@example.org",
                                                            trainer="choose"))
    assert chosen_later.status_code == 303
    game, state = current(int(chosen_later.headers["Location"].split("/")[-2]))
    assert game.options == {"mode": "solo"} and state["options"]["trainer_guilds"] == "choose"

    # The options box still works and wins over the fields.
    typed = client.post("/games/new", data=form_data(
        client, mode="duel", email0="s@example.org", options="mode=solo\nstars.7=3\n"))
    assert typed.status_code == 303, text(typed)
    assert current(int(typed.headers["Location"].split("/")[-2]))[0].options == {
        "mode": "solo", "stars": {"7": 3}}


def test_start_form_solo_trainer_guilds_at_random_or_the_4_ticked(client):
    """The standing choices besides choosing after the keep: a random 4, or 4 ticked (ticks name
    the trainer's guilds even with the radio left at its default)."""
    random_solo = client.post("/games/new", data=form_data(client, mode="solo", email0="s@example.org",
                                                           trainer="random"))
    assert random_solo.status_code == 303
    assert current(int(random_solo.headers["Location"].split("/")[-2]))[0].options == {
        "mode": "solo", "trainer_guilds": "random"}
    ticked = client.post("/games/new", data=form_data(
        client, mode="solo", email0="s@example.org", trainer="choose", trainer_acid="on",
        trainer_lava="on", trainer_star="on", trainer_love="on"))
    assert ticked.status_code == 303, text(ticked)
    assert current(int(ticked.headers["Location"].split("/")[-2]))[0].options == {
        "mode": "solo", "trainer_guilds": ["lava", "acid", "star", "love"]}  # in the guilds' order


# A text email lists each choice as "<number>. <label>" with its link on the next line.
CHOICE = re.compile(r"^\d+\. (.+)\n  (https?://\S+/p/[A-Za-z0-9_.\-]+\?step=\S+)$", re.MULTILINE)


def test_a_solo_game_from_the_form_asks_for_the_trainers_guilds_after_the_keep_and_emails_them(client):
    """Rules §11 ("from all the remaining guilds, the trainer gets any 4, the player's choice")
    through the service: a solo game started from the form (its guilds left to the player, the
    default) offers the keep; once 4 are kept through the page's move route, the page asks for the
    trainer's guilds among the 14 not kept (the 2 set aside first), each a choice in words; an email
    sent at that decision (the 24-hour reminder) links each guild as its own choice, and a link
    opens the page with that guild chosen; the fourth guild given starts the play."""
    preconsent("sol@example.org")
    created = client.post("/games/new", data=form_data(client, mode="solo", email0="sol@example.org",
                                                         trainer="choose", deadline="72"))
    assert created.status_code == 303, text(created)
    game_id = int(created.headers["Location"].split("/")[-2])
    confirm_creator(game_id)  # Sol confirms the game she started
    game, state = current(game_id)
    offer = state["draft"]["offer"][:]
    (first,) = [r for r in outbox_rows(game_id) if r.kind == "turn"]
    _, body = rendered(first)
    assert "you choose the trainer's 4 guilds from the 14 not kept" in body
    (player,) = seats(game_id)
    url = f"/p/{tokens.page(player)}"
    for guild in offer[:4]:
        page = text(client.get(url))
        answer = client.post(f"{url}/move", data={"csrf_token": csrf_token(page), "seq": current(game_id)[0].seq,
                                                  "move": json.dumps({"type": "pick", "guild": guild})})
        assert answer.status_code == 303, text(answer)
    game, state = current(game_id)
    not_kept = offer[4:] + [g for g in RULES.options_schema()["properties"]["trainer_guilds"]["anyOf"][1]
                            ["items"]["enum"] if g not in offer]
    assert state["phase"] == "draft" and state["draft"]["trainer_offer"] == not_kept and len(not_kept) == 14

    raw = text(client.get(url))
    page = html.unescape(raw)
    plain = re.sub(r"<[^>]+>", "", page).replace("’", "'")
    assert "Your decision: choose the trainer's guilds from those not kept (0 of 4 so far)." in plain
    assert "Setup: the trainer's 4 guilds, your choice from those you did not keep" in plain
    gives = [json.loads(v) for v in move_values(raw) if '"give"' in v]
    assert gives == [{"type": "give", "guild": g} for g in not_kept]
    for g in not_kept:
        assert f"Give {GUILD_NAME[g]} to the trainer" in page

    assert sweep(utcnow() + timedelta(hours=72 - 23))["reminders"] == 1  # the form's 72-hour turns
    (reminder,) = [r for r in outbox_rows(game_id) if r.kind == "reminder"]
    assert reminder.seq == game.seq
    _, body = rendered(reminder)
    links_ = dict(CHOICE.findall(body))
    assert list(links_) == [f"Give {GUILD_NAME[g]} to the trainer" for g in not_kept[:12]]
    assert "All 14 choices are on your game page." in body
    aside = links_[f"Give {GUILD_NAME[offer[4]]} to the trainer"]
    opened = client.get(urllib.parse.urlsplit(aside).path, query_string=urllib.parse.parse_qs(urllib.parse.urlsplit(aside).query))
    assert opened.status_code == 200
    chosen = re.findall(r'value="([^"]*)" required checked>', text(opened))
    assert [json.loads(html.unescape(v)) for v in chosen] == [{"type": "give", "guild": offer[4]}]

    for guild in [offer[4], offer[5], not_kept[5], not_kept[9]]:
        page = text(client.get(url))
        answer = client.post(f"{url}/move", data={"csrf_token": csrf_token(page), "seq": current(game_id)[0].seq,
                                                  "move": json.dumps({"type": "give", "guild": guild})})
        assert answer.status_code == 303, text(answer)
    game, state = current(game_id)
    assert state["phase"] == "play" and state["guilds"] == [offer[:4], [offer[4], offer[5], not_kept[5], not_kept[9]]]


def test_start_form_rejects_bad_mode_settings_with_reasons(client):
    two = {"email0": "a@example.org", "email1": "b@example.org"}
    cases = [
        (dict(mode="team", **two), "Team play is for 3 or 4 players; you entered 2 email addresses"),
        (dict(mode="solo", **two), "Solo against the trainer is for 1 player; you entered 2"),
        (dict(email0="a@example.org"), "The duel is for 2 players; you entered 1 email address."),
        (dict(mode="quest", **two), "Choose a Riftforce mode: duel, team or solo"),
        (dict(mode="solo", email0="a@example.org", trainer_fire="on", trainer_ice="on"),
         "Tick exactly 4 guilds for the trainer (you ticked 2), or choose its guilds after your keep."),
        (dict(mode="solo", email0="a@example.org", trainer="named"),
         "Tick exactly 4 guilds for the trainer (you ticked 0)"),
        (dict(mode="solo", email0="a@example.org", trainer="random", trainer_fire="on"),
         "You ticked 1 guild for the trainer but chose a random 4"),
        (dict(mode="solo", email0="a@example.org", trainer="mine"),
         "Choose how the trainer gets its guilds: after your keep, at random, or the 4 ticked."),
        (dict(mode="solo", email0="a@example.org", stars5="9"), "must be 1 to 4 stars"),
        (dict(mode="solo", email0="a@example.org", and_number="8"), "The &amp; card goes on the 5s"),
        # The engine's own reasons (IllegalMove bad_options) for what the options box lets through.
        (dict(mode="solo", email0="a@example.org", options="stars.5=9"), "stars: {"),
        (dict(mode="solo", email0="a@example.org", options="trainer_guilds=fire,fire,ice,air"),
         'trainer_guilds: "choose" (after your keep), "random", or 4 different guild names'),
        (dict(mode="solo", email0="a@example.org", options="trainer_guilds=mine"),
         'trainer_guilds: "choose" (after your keep), "random", or 4 different guild names'),
        (dict(mode="team", options="guilds=base", **{f"email{i}": e for i, (_, e) in enumerate(FOUR)}),
         "team play takes no options"),
    ]
    for fields, reason in cases:
        response = client.post("/games/new", data=form_data(client, **fields))
        assert response.status_code == 422, fields
        shown = text(response)
        assert html.unescape(reason) in html.unescape(shown), (fields, shown[shown.find("problem"):][:400])
        # The page keeps what was chosen.
        if fields.get("mode") in ("team", "solo"):
            assert f'name="mode" value="{fields["mode"]}"' in shown
            assert f'value="{fields["mode"]}" formnovalidate aria-pressed="true"' in shown
    assert outbox_rows() == []


def test_cli_creates_team_and_solo_games_with_convenient_options(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", "riftforce", *[f"{n}={e}" for n, e in FOUR],
                                 "--option", "mode=team"])
    assert result.exit_code == 0, result.output
    assert current(int(result.output))[0].options == {"mode": "team"}
    result = runner.invoke(args=[
        "new-game", "riftforce", "Sol=sol@example.org", "--option", "mode=solo",
        "--option", "stars.5=2", "--option", "stars.6=1", "--option", "stars.7=3",
        "--option", "and.number=6", "--option", "and.end=A",
        "--option", "trainer_guilds=fire,water,ice,plant"])
    assert result.exit_code == 0, result.output
    assert current(int(result.output))[0].options == {
        "mode": "solo", "stars": {"5": 2, "6": 1, "7": 3}, "and": {"number": 6, "end": "A"},
        "trainer_guilds": ["fire", "water", "ice", "plant"]}
    result = runner.invoke(args=["new-game", "riftforce", "s@example.org", "--option", "mode=solo",
                                 "--option", 'stars={"5": 4}', "--option", "trainer_guilds=random"])
    assert result.exit_code == 0, result.output
    assert current(int(result.output))[0].options == {"mode": "solo", "stars": {"5": 4}, "trainer_guilds": "random"}
    result = runner.invoke(args=["new-game", "riftforce", "s@example.org", "--option", "mode=solo",
                                 "--option", "trainer_guilds=Choose"])
    assert result.exit_code == 0, result.output
    assert current(int(result.output))[0].options == {"mode": "solo", "trainer_guilds": "choose"}
    bad = runner.invoke(args=["new-game", "riftforce", "a@example.org", "b@example.org",
                              "--option", "mode=team"])
    assert bad.exit_code != 0 and "team play is for 3 or 4 players" in bad.output
    bad = runner.invoke(args=["new-game", "riftforce", "a@example.org", "--option", "mode=solo",
                              "--option", "stars.6=5"])
    assert bad.exit_code != 0 and "stars:" in bad.output


# ---- the boards --------------------------------------------------------------------------------------

@pytest.fixture
def team_game(app):
    game_id = new_game("riftforce", FOUR, {"mode": "team"}, seed=11)
    # Past the draft and a few actions, so every seat has a hand and the rift has elementals.
    play_until(game_id, lambda game, state: state["phase"] == "play" and sum(state["actions"]) >= 6)
    return game_id


def test_team_pages_per_seat_show_zones_teams_order_and_only_the_own_hand(client, team_game):
    game, state = current(team_game)
    for player in seats(team_game):
        me = player.seat
        page = text(client.get(f"/p/{links.player_token(player.id, player.row_key)}"))
        partner = (me + 2) % 4
        foes = " &amp; ".join(FOUR[s][0] for s in (1 - me % 2, 3 - me % 2))
        for needle in ("Green zone", "Grey zone", "Location </span>6", "Turn order",
                       f"You &amp; {FOUR[partner][0]} <span class=\"small\">(your team)</span>",
                       f'<th scope="row">{foes}</th>', f"above the line, You &amp; {FOUR[partner][0]} below"):
            assert needle in page, (me, needle)
        assert f"Your partner is <strong>{FOUR[partner][0]}</strong>" in page
        assert names_of(state["hand"][me]) == hand_cards(page)
        others = {c for s in range(4) if s != me for c in state["hand"][s]}
        others |= {c for s in range(4) for c in state["deck"][s]}
        assert not set(CARD_ID.findall(page)) & others, me
        for value in move_values(page):  # the moves name only the own hand and the board
            assert not set(CARD_ID.findall(value)) & others
        order = state["order"]
        current_pos = re.search(r'<li class="now" aria-current="step">(\d)\. ', page)
        assert current_pos and int(current_pos.group(1)) == state["pos"] + 1
        assert page.count('aria-current="step"') == 1
        assert order  # the positions are listed in the order card's order
        for pos, seat in enumerate(order, start=1):
            who = "You" if seat == me else FOUR[seat][0]
            assert f">{pos}. {who}" in page, (me, pos, who)
        drawn = board_of(page)
        assert "Player " not in drawn and "Opponent" not in drawn  # the board names everyone

    spectator = text(client.get(f"/games/{team_game}"))
    assert "Team play: Ann &amp; Cat against Bob &amp; Dan." in spectator
    assert "The rift, locations 1 to 6: Bob &amp; Dan above the line, Ann &amp; Cat below" in spectator
    assert "Your hand" not in spectator and "Your partner" not in spectator
    hidden = {c for s in range(4) for c in state["hand"][s] + state["deck"][s]}
    assert not set(CARD_ID.findall(spectator)) & hidden
    api = client.get(f"/api/games/{team_game}").get_json()
    assert api["view"]["hand"] is None and api["view"]["mode"] == "team"
    assert not set(CARD_ID.findall(json.dumps(api))) & hidden
    assert "example.org" not in json.dumps(api)


def test_three_player_page_names_the_lone_player(client, app):
    game_id = new_game("riftforce", FOUR[:3], {"mode": "team"}, seed=4)
    play_until(game_id, lambda game, state: state["phase"] == "play")
    bob = seats(game_id)[1]
    page = text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}"))
    assert "You play alone against a team of two, and check all six locations." in page
    assert ">2. You" in page and ">4. You" in page
    assert "checks all six locations, positions 2 and 4" in page


def test_solo_board_shows_the_trainer_plans_challenges_and_the_and_card(client, app):
    game_id = new_game("riftforce", [("Sol", "sol@example.org")],
                       {"mode": "solo", "stars": {"5": 3, "6": 4, "7": 2}, "and": {"number": 7, "end": "B"}},
                       seed=3)
    draft = text(client.get(f"/p/{links.player_token(seats(game_id)[0].id, seats(game_id)[0].row_key)}"))
    assert "Setup: keep 4 summoners" in draft and "Kept so far: none yet (0 of 4)" in draft
    play_until(game_id, lambda game, state: state["phase"] == "play" and state["actions"][0] >= 2)
    game, state = current(game_id)
    sol = seats(game_id)[0]
    page = text(client.get(f"/p/{links.player_token(sol.id, sol.row_key)}"))
    spectator = text(client.get(f"/games/{game_id}"))
    for shown in (page, spectator):
        assert "Solo against the trainer." in shown and "the trainer" in shown
        assert "The rift, locations 1 to 5: the trainer’s bots above the line" in shown
        assert "★★★★</span> (4 stars)" in shown and "<strong>Unverified</strong>" in shown
        assert shown.count("<strong>Unverified</strong>") == 1  # only 6 at 4 stars
        assert "&amp; card, end B" in shown and "Remove 1 damage from any bot" in shown
        assert "Next plan (face up):" in shown and RULES.view(state, None)["plan"]["next"]["words"] in html.unescape(shown)
        assert "placeholder plan deck" in shown
        hidden = set(state["deck"][0]) | set(state["deck"][1])
        assert not set(CARD_ID.findall(shown)) & hidden
    assert "Your hand (" in page and "Your hand" not in spectator
    assert not set(CARD_ID.findall(spectator)) & set(state["hand"][0])


# ---- emails ---------------------------------------------------------------------------------------

def rendered(row: Outbox):
    with read_session(get_engine()) as session:
        message = mail.build(session, session.get(Outbox, row.id))
    parts = [p.get_content() for p in message.walk() if p.get_content_maintype() == "text"]
    return message, "\n".join(parts)


def test_team_partners_read_what_their_partner_did_in_their_next_turn_email_and_never_see_their_hand(app):
    preconsent(*[email for _, email in FOUR])  # about the game's own emails, not the invitation
    game_id = new_game("riftforce", FOUR, {"mode": "team"}, seed=11)
    play_until(game_id, lambda game, state: state["phase"] == "play" and sum(state["actions"]) >= 8)
    rows = outbox_rows(game_id)
    assert not [r for r in rows if r.kind == "partner"]  # no emails of their own: folded into turns
    by_id = {p.id: p for p in seats(game_id)}
    turns = [r for r in rows if r.kind == "turn"]
    for row in turns[-4:]:
        message, body = rendered(row)
        seat = by_id[row.player_id].seat
        partner = (seat + 2) % 4
        assert message["Subject"] == f"Riftforce #{game_id}: Ann & Cat vs Bob & Dan"
        assert message["In-Reply-To"]  # in the player's game thread
        first = body.splitlines()[0]
        assert first.endswith("Your turn.") and len(first) > len("Your turn."), first  # what changed, first
        assert f"\n- {FOUR[partner][0]} " in body or "\n- Your team " in body  # the partner's turn, named
        text = message.get_body(("plain",)).get_content()
        assert "Player " not in text and "[P" not in text  # named, never numbered
        with read_session(get_engine()) as session:
            state, _ = store.load_state(session, store.get_game(session, game_id), row.seq)
        assert not set(CARD_ID.findall(body)) & set(state["hand"][partner] + state["deck"][partner])
    # At most one email per player per change of whose turn it is.
    assert len({(r.player_id, r.seq) for r in rows}) == len(rows)


def test_solo_player_gets_a_turn_email_each_round_with_what_the_trainer_did(app):
    game_id = new_game("riftforce", [("Sol", "sol@example.org")], {"mode": "solo"}, seed=8)
    play_until(game_id, lambda game, state: state["phase"] == "play" and state["actions"][0] >= 3)
    game, state = current(game_id)
    turns = [r for r in outbox_rows(game_id) if r.kind == "turn"]
    # The first turn (the setup's keep-4), then one per turn the engine starts (after the draft,
    # then after each round of the player's action and the trainer's plan).
    with read_session(get_engine()) as session:
        started = [row for row in store.stored_events(session, game_id) if row.payload["type"] == "turn"]
    assert len(started) >= 3 and len(turns) == 1 + len(started)
    assert [r.seq for r in turns[1:]] == [row.seq for row in started]
    message, body = rendered(turns[-1])
    assert message["Subject"] == f"Riftforce #{game_id}: Sol vs the trainer"
    # What the trainer did comes first (its plan, set off by the player's action, is its own doing).
    first = body.splitlines()[0]
    assert "The trainer" in first and not first.startswith("You ") and first.endswith(" Your turn."), first
    assert "The trainer carries out its plan" in body
    assert "You played" in body or "You checked" in body or "You discarded" in body


def written(session, queued) -> list[Outbox]:
    """The outbox rows just queued (outbox.add writes them at once and hands back their ids)."""
    return [session.get(Outbox, row.id) for row in queued]


def test_three_player_team_games_send_no_partner_emails(app):
    game_id = new_game("riftforce", FOUR[:3], {"mode": "team"}, seed=4)
    play_until(game_id, lambda game, state: state["phase"] == "play" and sum(state["actions"]) >= 6)
    assert not [r for r in outbox_rows(game_id) if r.kind == "partner"]
    message, _ = rendered([r for r in outbox_rows(game_id) if r.kind == "turn"][-1])
    assert message["Subject"] == f"Riftforce #{game_id}: Ann & Cat vs Bob"  # the lone player: a side alone
    # The rule itself: whose turn it is gets the turn email; the teammate who waits gets nothing now.
    from service.play import emails

    by_id = {p.id: p.seat for p in seats(game_id)}
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = store.players_of(session, game_id)
        teams = engine.get("riftforce").teams(current(game_id)[1])
        assert teams == [[0, 2]]
        # The rows are written at once: the ones the game's last move wrote would collide (rolled back).
        session.execute(sa.delete(Outbox).where(Outbox.game_id == game_id))
        rows = written(session, emails.on_change(session, game, players, 0, before=[0], after=[2], starts={2}))
        assert sorted((r.kind, by_id[r.player_id]) for r in rows) == [("turn", 2)]
        rows = written(session, emails.on_change(session, game, players, 0, before=[0], after=[1], starts={1}))
        assert sorted((r.kind, by_id[r.player_id]) for r in rows) == [("turn", 1)]
        session.rollback()


def test_turn_emails_for_a_seat_that_starts_its_next_turn_itself_only(app):
    """The engine's turn counter says when a turn begins: the solo player's own action that starts
    their next round gets them a turn email, a follow-up decision of the same action none."""
    from service.play import emails

    game_id = new_game("riftforce", [("Sol", "sol@example.org")], {"mode": "solo"}, seed=8)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = store.players_of(session, game_id)
        next_round = written(session, emails.on_change(session, game, players, 0, before=[0], after=[0], starts={0}))
        assert [(r.kind, r.player_id) for r in next_round] == [("turn", players[0].id)]
        session.rollback()
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = store.players_of(session, game_id)
        follow_up = emails.on_change(session, game, players, 0, before=[0], after=[0], starts=set())
        assert follow_up == []
        session.rollback()
    assert engine.get("riftforce").teams(current(game_id)[1]) == []


def test_a_team_game_names_the_partner_in_the_turn_order_sentences_and_emails(app, client, sink):
    """#22 item 9: "Your partner" stood where the partner's name belongs.  Each seat of a 4-player
    team game reads the partner's name, marked "(your partner)" in the turn order, on its page (turn
    order, last moves, history) and in the turn email sent through SMTP (its first line, what happened
    since, the plain-text turn order and board); "You" stays for oneself."""
    app.config["SMTP_URL"] = sink.url
    preconsent(*[email for _, email in FOUR])
    game_id = new_game("riftforce", FOUR, {"mode": "team"}, seed=11)
    play_until(game_id, lambda game, state: state["phase"] == "play" and sum(state["actions"]) >= 8)
    game, state = current(game_id)
    for player in seats(game_id):
        me, partner = player.seat, FOUR[player.seat ^ 2][0]
        page = text(client.get(f"/p/{tokens.page(player)}"))
        order = re.search(r'<ol class="order">(.*?)</ol>', page, re.S).group(1)
        assert f"{partner} (your partner)" in order and re.search(r"\d\. You\b", order), (me, order)
        assert order.count("your partner") == 1
        history = text(client.get(f"/p/{tokens.page(player)}/history"))
        for shown in (page, history):
            assert "Your partner " not in html.unescape(shown).replace("Your partner is ", ""), me
        assert "Your partner is <strong>" + partner in page
    turns = [r for r in outbox_rows(game_id) if r.kind == "turn"][-4:]
    for row in turns:
        assert outbox.deliver(row.id) == "sent"
    by_id = {p.id: p for p in seats(game_id)}
    sent = {m["To"]: m for m in sink.wait_for(len(turns))}
    told = 0
    for row in turns:
        seat = by_id[row.player_id].seat
        name, address = FOUR[seat]
        partner = FOUR[seat ^ 2][0]
        message = sent[f"{name} <{address}>"]
        plain = message.get_body(("plain",)).get_content()
        markup = message.get_body(("html",)).get_content()
        assert "Your partner " not in plain.replace("Your partner is ", "")
        assert "your partner" not in plain.replace(f"{partner}, your partner", "").replace(
            f"{partner} (your partner)", "").lower().replace("your partner is ", ""), plain
        line = next(line for line in plain.splitlines() if line.startswith("Turn order: "))
        assert f"{partner} (your partner)" in line and "You" in line, line
        assert f"Score: You & {partner} (your team)" in plain
        assert f"{partner} (your partner)</li>" in markup or f"{partner} (your partner) (now)</li>" in markup
        told += f"\n- {partner} " in plain  # the partner's turn, named, among what happened since
    assert told >= 1
