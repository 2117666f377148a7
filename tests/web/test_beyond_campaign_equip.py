"""Between two Beyond the Rift campaign games the party arranges its equipment and chooses unlocked sides
(rules section 1.21) on the offer's form (templates/games/beyond-the-rift/_follow_up.html, service/games/beyond_the_rift.py); a bad or
tampered choice is refused with the engine's reason and starts nothing; the game-over email says what
comes next."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from engine.beyond_the_rift.content import CONTENT
from service import links
from service.mail import compose as mail
from service.play import ending, new_game
from service.store import get_engine, read_session
from service.store.models import CampaignGame, Game, utcnow
from tests import tokens
from tests.beyond_helpers import policy
from tests.service.helpers import current, outbox_rows
from tests.web.pages import csrf_token, text
from tests.web.test_beyond_campaign import PLAYERS, play_out, players, rows, won_game

# A campaign half-way through: Brannoc (a lawful-or-neutral warrior) wears Runner's Boots; the stash holds
# items for him, for Isolde (a chaotic mage) and for neither (the Longbow is a scout's); Brannoc's
# Oathbound side is unlocked.
CARRY = {"campaign": "old-friends", "won": ["old-friends-1"], "equipped": {"brannoc": {"legs": "IT-BOOTS"}},
         "stash": ["IT-GREATHELM", "IT-BRIGANDINE", "IT-LONGBOW", "IT-EMBERROD"],
         "unlocked_sides": {"brannoc": ["oathbound"]}, "reward_deck": ["IT-BUCKLER", "IT-CENSER"]}


def lost_game() -> int:
    """A finished, lost game of The Burrow Road played with CARRY: its page offers a replay."""
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "old-friends-2", "carry": CARRY,
                                                    "defense_modes": ["auto", "auto"]}, seed=5)
    assert play_out(game_id, policy).result["outcome"] == "loss"
    return game_id


def form(page: str) -> dict:
    """The offer form as a browser would send it untouched: each <select>'s selected option."""
    fields = {"csrf_token": csrf_token(page)}
    for name, options in re.findall(r'<select id="[^"]+" name="((?:equip|side)\.[^"]+)">(.*?)</select>', page, re.S):
        fields[name] = re.search(r'<option value="([^"]*)" selected>', options).group(1)
    return fields


def post(client, player, **changes):
    token = links.player_token(player.id, player.row_key)
    page = text(client.get(f"/p/{token}"))
    data = form(page)
    data.update({name.replace("__", "."): value for name, value in changes.items()})
    return page, client.post(f"/p/{token}/campaign", data=data)


def offer_section(page: str) -> str:
    start = page.index('id="campaign-h"')
    return page[start:page.index("</section>", start)]


def deck(state: dict, seat: int) -> set[str]:
    """The card definitions a hero's deck was built from."""
    return {state["cards"][cid] for cid, owner in state["owner"].items() if owner == seat}


def standard(hero: str, part: str) -> set[str]:
    return {d for d in CONTENT.decks[hero] if CONTENT.cards[d].get("part") == part}


def item_cards(item: str) -> set[str]:
    return {c["id"] for c in CONTENT.items[item]["cards"]}


def test_the_offer_form_names_the_items_and_what_they_add(client, app):
    ann = players(lost_game())[0]
    page = text(client.get(f"/p/{links.player_token(ann.id, ann.row_key)}"))
    offer = offer_section(page)
    fields = form(page)
    assert {name for name in fields if name.startswith("equip.")} == {
        f"equip.{hero}.{part}" for hero in ("brannoc", "isolde")
        for part in ("head", "torso", "left_arm", "right_arm", "legs")}
    assert fields["side.brannoc"] == "standard" and "side.isolde" not in fields  # Isolde has nothing unlocked
    assert "Brannoc Vey, Oathbound" in offer and "Keep Runner&#39;s Boots" in offer and "Unequip Runner" in offer
    assert "Veteran&#39;s Greathelm: 2x Iron Focus (Defense 2 (cost 0, range 1) or AP 2" in offer
    assert "Ember Rod: 3x Ember Rod Jab (Attack 1+?" in offer
    assert "Ashwood Longbow" not in offer  # a scout's item: nobody of this party can use it
    # Isolde may not wear the Greathelm (a warrior's), Brannoc not wield the Ember Rod (a mage's).
    isolde_head = re.search(r'name="equip.isolde.head">(.*?)</select>', offer, re.S).group(1)
    brannoc_arm = re.search(r'name="equip.brannoc.right_arm">(.*?)</select>', offer, re.S).group(1)
    assert "Greathelm" not in isolde_head and "Ember Rod" not in brannoc_arm
    assert "IT-" not in re.sub(r"<[^>]+>", "", offer)  # ids only as option values, never shown


def test_equip_unequip_and_an_unlocked_side_go_into_the_replay(client, app):
    first = lost_game()
    ann, bob = players(first)
    _, answer = post(client, ann, equip__brannoc__head="IT-GREATHELM", equip__brannoc__legs="none",
                     equip__isolde__right_arm="IT-EMBERROD", equip__isolde__torso="IT-BRIGANDINE",
                     side__brannoc="oathbound")
    assert answer.status_code == 303, text(answer)[:2000]
    second = max(g.id for g in rows(Game))
    game, state = current(second)
    assert game.options["equip"] == {"brannoc": {"head": "IT-GREATHELM", "legs": None},  # only the changes
                                     "isolde": {"right_arm": "IT-EMBERROD", "torso": "IT-BRIGANDINE"}}
    assert game.options["heroes"] == [{"hero": "brannoc", "side": "oathbound"}, "isolde"]
    assert game.options["scenario"] == "old-friends-2"
    brannoc, isolde = state["heroes"]
    assert brannoc["side"] == "oathbound" and isolde["side"] == "standard"
    assert brannoc["equipped"] == {"head": "IT-GREATHELM"}
    assert isolde["equipped"] == {"right_arm": "IT-EMBERROD", "torso": "IT-BRIGANDINE"}
    # Equipping swaps every standard card of that body part for the item's; unequipping restores them.
    assert item_cards("IT-GREATHELM") <= deck(state, 0) and not standard("brannoc", "head") & deck(state, 0)
    assert standard("brannoc", "legs") <= deck(state, 0) and not item_cards("IT-BOOTS") & deck(state, 0)
    assert item_cards("IT-EMBERROD") | item_cards("IT-BRIGANDINE") <= deck(state, 1)
    assert sorted(state["campaign"]["stash"]) == ["IT-BOOTS", "IT-LONGBOW"]

    # Bob's press, with other choices from a page opened before, leads to the same game unchanged.
    _, again = post(client, bob, equip__brannoc__head="keep", side__brannoc="standard")
    assert again.status_code == 303 and tokens.links_page_of(again.headers["Location"], players(second)[1])
    assert len(rows(Game)) == 2
    page = text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}"))
    assert "has started" in page and "<select" not in offer_section(page)

    # That game lost too: its replay keeps the equipment chosen for it, and offers no Brannoc boots back.
    assert play_out(second, policy).result["outcome"] == "loss"
    page, answer = post(client, players(second)[0])
    assert "Keep Veteran&#39;s Greathelm" in page and "Keep Runner" not in page
    assert form(page)["side.brannoc"] == "oathbound"
    third = max(g.id for g in rows(Game))
    assert answer.status_code == 303 and third == second + 1
    game3, state3 = current(third)
    assert "equip" not in game3.options and game3.options["heroes"] == game.options["heroes"]
    assert state3["heroes"][0]["equipped"] == {"head": "IT-GREATHELM"} and state3["heroes"][0]["side"] == "oathbound"


@pytest.mark.parametrize("changes, reason", [
    ({"equip__brannoc__head": "IT-NOPE"}, "'IT-NOPE' is not in the party's stash"),
    ({"equip__brannoc__head": "IT-BUCKLER"}, "'IT-BUCKLER' is not in the party's stash"),
    ({"equip__brannoc__legs": "IT-GREATHELM"}, "Veteran's Greathelm cannot be equipped by brannoc on legs"),
    ({"equip__isolde__head": "IT-GREATHELM"}, "Veteran's Greathelm cannot be equipped by isolde on head"),
    ({"equip__brannoc__left_arm": "IT-LONGBOW"}, "Ashwood Longbow cannot be equipped by brannoc"),
    ({"equip__brannoc__tail": "IT-GREATHELM"}, "unknown body part 'tail'"),
    ({"equip__osric__head": "IT-GREATHELM"}, "cannot equip 'osric': not a hero of this party"),
    ({"side__isolde": "ashen"}, "isolde's ashen side is not unlocked"),
    ({"side__brannoc": "golden"}, "brannoc has no side 'golden'"),
    ({"side__osric": "penitent"}, "Cannot choose a side for osric: not a hero of this party"),
])
def test_a_bad_choice_is_refused_starts_nothing_and_the_party_can_press_again(client, app, changes, reason):
    first = lost_game()
    ann = players(first)[0]
    _, answer = post(client, ann, **changes)
    assert answer.status_code == 422
    assert reason in text(answer).replace("&#39;", "'")
    assert len(rows(Game)) == 1
    with read_session(get_engine()) as session:
        link = session.exec(select(CampaignGame).where(CampaignGame.game_id == first)).first()
    assert link is None or (link.follow_up_started_at is None and link.follow_up_game_id is None)
    # The claim was released: the same page, with good choices, starts the replay.
    _, answer = post(client, ann, equip__brannoc__head="IT-GREATHELM")
    assert answer.status_code == 303, text(answer)[:2000]
    assert current(max(g.id for g in rows(Game)))[1]["heroes"][0]["equipped"]["head"] == "IT-GREATHELM"


def game_over_text(game_id: int) -> str:
    ending.record_end(game_id, utcnow())  # what the worker does after the final move
    row = next(r for r in outbox_rows(game_id) if r.kind == "game_over")
    with read_session(get_engine()) as session:
        message = mail.build(session, row)
    return message.get_body(("plain",)).get_content() + message.get_body(("html",)).get_content()


def test_the_game_over_email_says_what_comes_next(client, app):
    won = won_game()
    body = game_over_text(won)
    assert "Old Friends, what next" in body and "next comes The Burrow Road" in body
    for drawn in current(won)[0].result["rewards"]["drawn"]:
        name = CONTENT.items[drawn["item"]]["name"]
        assert f"{CONTENT.board(drawn['hero'], 'standard')['name']}: {name}" in body.replace("&#39;", "'")
    assert "the choice of which items each hero equips: http://riftpost.test/p/" in body

    body = game_over_text(lost_game())
    assert "The Burrow Road can be replayed" in body and "has the button that starts it" in body

    tutorial = new_game("beyond-the-rift", PLAYERS, seed=3)
    play_out(tutorial, policy)
    body = game_over_text(tutorial)
    assert "is over" in body and "what next" not in body and "replayed" not in body


def test_the_reward_deck_order_in_the_options_stays_hidden_until_the_end(client, app):
    """The carry-over in a campaign game's options holds the reward deck in order: what the next win
    draws.  The setup event is redacted to its size (engine), and so are the options in the
    downloadable record while the game runs (review finding); the finished game's record has it all."""
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "old-friends-2", "carry": CARRY,
                                                    "defense_modes": ["auto", "auto"]}, seed=5)
    urls = [f"/p/{links.player_token(p.id, p.row_key)}/history/record.json" for p in players(game_id)]
    urls.append(f"/games/{game_id}/history/record.json")
    for url in urls:
        record = client.get(url).get_json()
        assert record["options"]["carry"]["reward_deck"] == 2, url
        assert "IT-BUCKLER" not in client.get(url).get_data(as_text=True)
    assert play_out(game_id, policy).result["outcome"] == "loss"
    ending.record_end(game_id, utcnow())
    assert client.get(urls[0]).get_json()["options"]["carry"]["reward_deck"] == ["IT-BUCKLER", "IT-CENSER"]
