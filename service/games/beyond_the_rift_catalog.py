"""Beyond the Rift's message catalog in English: the source of the `beyond_the_rift` gettext domain
(issue #26, docs/i18n.md "Game messages").

Each engine message key (engine/beyond_the_rift/messages.py) is a gettext context here and its English
sentence the msgid (a pair, singular and plural, where the message has a `Count`).  A key with a `.you`
twin has a form for the reader whose hero acts ("You play Firebolt.").  The game's words are entries of
their own: heroes (context "hero"), hero board actions, items, body parts, phases, piles, the enemies'
abilities, the scenarios' activation steps, the standing orders' sections and values, and every card's
name (context "card": hero cards, Wounds, Fatigue, enemies, terrain).  The English is what
engine/beyond_the_rift/words.py says (tests/i18n/test_btr_messages.py holds it to that).
"""

from __future__ import annotations

from engine.beyond_the_rift import messages as btr
from engine.beyond_the_rift import words
from engine.beyond_the_rift.content import CONTENT
from service.games.base import GameCatalog


def _you(key: str, english: str, you: str) -> dict[str, str]:
    return {key: english, f"{key}.you": you}


def _both(key: str, third: tuple[str, str] | str, you: tuple[str, str] | str) -> dict[str, str | tuple[str, str]]:
    return {key: third, f"{key}.you": you}


_SPAWN = {"summon": "is summoned", "aside": "arrives", "appears": "appears"}
_WHERE = {"quest": "the Quest Area", "hero": "a Hero Area"}

MESSAGES: dict[str, str | tuple[str, str]] = {
    # ---- events
    "event.setup": ("A new scenario begins with {count} hero.", "A new scenario begins with {count} heroes."),
    "event.phase": "Round {round}: {phase}.",
    **_both("event.draw", ("{who} draws {count} card.", "{who} draws {count} cards."),
            ("You draw {count} card.", "You draw {count} cards.")),
    **_you("event.draw.cards", "{who} draws {cards}.", "You draw {cards}."),
    **_you("event.hero_shuffle", "{who} reshuffles the discard pile with two Fatigue cards into a new deck.",
           "You reshuffle the discard pile with two Fatigue cards into a new deck."),
    "event.pile_shuffle": "The {pile} discard pile is shuffled into a new deck.",
    "event.response": "Response card{why}: {value}{sigil}.",
    **{f"why.{code}": text for code, text in words.WHY.items()},
    "with_sigil": " with the Rift sigil",
    **_you("event.ap", "{who} now has {ap} AP ({delta}).", "You now have {ap} AP ({delta})."),
    **_you("event.take", "{who} takes a {pile} card into hand.", "You take a {pile} card into hand."),
    **_you("event.take.card", "{who} takes a {pile} card into hand: {card}.", "You take a {pile} card into hand: {card}."),
    **_you("event.deck_top", "A {pile} card is put on top of {who}'s deck.", "A {pile} card is put on top of your deck."),
    **_you("event.play", "{who} plays {card}.", "You play {card}."),
    **_you("event.discard", "{who} discards {cards}.", "You discard {cards}."),
    **_you("event.reveal", "{who} reveals {cards}.", "You reveal {cards}."),
    **_you("event.to_hand", "{who} takes {card} into hand.", "You take {card} into hand."),
    **_you("event.heal", "{who} removes {card} from hand.", "You remove {card} from hand."),
    **{f"event.spawn.{how}.{where}": f"{{enemy}} {verb} in {place}."
       for how, verb in _SPAWN.items() for where, place in _WHERE.items()},
    "event.terrain_in": "Terrain appears: {terrain}.",
    "event.terrain_out": "{terrain} is removed ({how}).",
    "event.enemy_move.quest": "{enemy} moves to the Quest Area ({why}).",
    "event.enemy_move.hero": "{enemy} moves to {hero}'s area ({why}).",
    "event.attach": "{card} is attached to {target}.",
    "event.detach": "{card} is removed from {target} ({why}).",
    "event.enemy_dies": "{enemy} is defeated.",
    "event.persist": "{card} stays in play in {hero}'s area.",
    "event.persist_gone": "{card} leaves play.",
    "event.threat": "Threat is now {threat}.",
    "event.stat_mod": "{stat} {n} {dur} for {target}.",
    **_you("event.attack_result.hit", "{who} attacks {target}: {attack}{q} against defense {defense} - hit.",
           "You attack {target}: {attack}{q} against defense {defense} - hit."),
    **_you("event.attack_result.miss", "{who} attacks {target}: {attack}{q} against defense {defense} - miss.",
           "You attack {target}: {attack}{q} against defense {defense} - miss."),
    "q_draws": " (? draws: {values})",
    **_you("event.door_open.open", "{who} spends {spent} AP on {door} against {value}: open.",
           "You spend {spent} AP on {door} against {value}: open."),
    **_you("event.door_open.shut", "{who} spends {spent} AP on {door} against {value}: still shut.",
           "You spend {spent} AP on {door} against {value}: still shut."),
    "event.activation": "The enemies activate in column {column}.",
    "event.activation.sigil": "The enemies activate in column {column} (Rift sigil).",
    "event.enemy_step.unable": "{enemy}: '{step}' - unable, nothing happens.",
    "event.enemy_attack.hit": "{enemy} attacks {target}: {attack} against defense {defense} - hit.",
    "event.enemy_attack.miss": "{enemy} attacks {target}: {attack} against defense {defense} - no damage.",
    "event.special": "{enemy} uses {ability} on {hero}.",
    "event.cancelled": "{ability} is cancelled by a reaction.",
    "event.ally_attack.hit": "{ally} attacks {enemy}: {attack} against {defense} - hit.",
    "event.ally_attack.miss": "{ally} attacks {enemy}: {attack} against {defense} - miss.",
    **_you("event.board_action", "{who} uses {action}.", "You use {action}."),
    **_you("event.interact", "{who} uses {terrain}.", "You use {terrain}."),
    **_you("event.peek.hidden", "{who} looks at a hidden card.", "You look at a hidden card."),
    **_both("event.peek.response", ("{who} sees the top Response card: {values}.",
                                    "{who} sees the top Response cards: {values}."),
            ("You see the top Response card: {values}.", "You see the top Response cards: {values}.")),
    **_you("event.peek.deck", "{who} sees {cards} on top of the deck.", "You see {cards} on top of the deck."),
    **_you("event.response_bottom", "{who} puts the top Response card on the bottom.",
           "You put the top Response card on the bottom."),
    **_you("event.deck_discard", "{who} discards {card} from the top of the deck.",
           "You discard {card} from the top of the deck."),
    **_you("event.pledge", "{who} pledges a card to another hero.", "You pledge a card to another hero."),
    **_you("event.pledge_used", "{who} aids with a pledged card.", "You aid with a pledged card."),
    **_you("event.plan", "{who} changes their standing orders ({setting}).",
           "You change your standing orders ({setting})."),
    "event.party": "The party's standing orders change ({setting}).",
    **_you("event.mode", "{who} sets the defense mode to {mode}.", "You set the defense mode to {mode}."),
    **_you("event.status", "{who} is {status}.", "You are {status}."),
    "event.won": "The heroes win: {reason}. The rewards are handed out.",
    **_you("event.reward_draw", "{who} draws {items} from the reward deck.", "You draw {items} from the reward deck."),
    "item": "{item}",
    **_you("event.reward.stash", "{who} puts {item} in the party's stash.", "You put {item} in the party's stash."),
    **_you("event.reward.reward_deck", "{who} puts {item} back under the reward deck.",
           "You put {item} back under the reward deck."),
    **_you("event.reward.give", "{who} gives {item} to {hero}, who equips it ({part}).",
           "You give {item} to {hero}, who equips it ({part})."),
    **_you("event.reward.equip", "{who} equips {item} ({part}).", "You equip {item} ({part})."),
    "event.result.win": "The heroes win: {reason}.",
    "event.result.loss": "The heroes lose: {reason}.",
    # ---- why a scenario ended
    "reason.threat": "Threat reached {threat}",
    "reason.hero_died": "{hero} died",
    "reason.boss_defeated": "{enemy} is defeated",
    "reason.response_deck": "the Response deck ran out",
    "reason.wound_supply": "the Wound supply ran out",
    "reason.way_out_open": "the way out is open",
    "reason.road_clear": "the road is clear",
    # ---- names and pieces
    "a_card": "a card",
    "a_hero": "A hero",
    "an_ally": "an ally",
    "the_ally": "the ally {card}",
    "the_enemy": "the enemy",
    "the_enemy.id": "the enemy {id}",
    "label": "{name} {id}",
    "signed.plus": "+{n}",
    "signed.minus": "-{n}",
    "number": "{n}",
    "sep.comma": ", ",
    "hero_n": "hero {n}",
    "nothing": "",
    # ---- moves
    "move.draw": "Pay AP to draw a card",
    "move.cycle": "Cycle cards (pay AP, discard, draw as many)",
    "move.board": "Use your hero board action",
    "move.done": "End my turn (I act again if another hero's move involves me)",
    "move.done_final": "End my turn for this round (nothing reopens it)",
    "move.undone": "Reopen: I want to act again",
    "move.resolve": "Resolve the attack now",
    "move.no_aid": "Do not aid",
    "move.cancel": "Cancel",
    "move.finish": "Finish",
    "move.pass": "Do not react",
    "move.keep": "Leave it where it is",
    "move.keep.recover": "Keep the Fatigue in my hand",
    "move.plan": "Defend by my standing plan",
    "move.confirm": "Confirm my defense",
    "move.spend": "Spend AP at your board's rate for +defense",
    "move.spend.n": "Spend {n} AP",
    "move.attack": "Attack with {card}{mode}",
    "move.attack.nopledge": "Attack with {card}{mode}, refusing the pledged aid",
    "mode.as": " as {kind}",
    "mode.option": " (option {n})",
    "move.play": "Play {card}{mode}",
    "move.wound": "Play {card} from hand (lose AP)",
    "move.discard_ap": "Discard {card} to gain AP",
    "move.discard": "Discard {card} (hand size)",
    "move.engage": "Engage {enemy}",
    "move.disengage": "Disengage {enemy}",
    "move.open": "Open {door} with AP",
    "move.interact": "Use {terrain}",
    "move.mode.auto": "Defend automatically by my plan",
    "move.mode.ask": "Ask me at every enemy attack",
    "move.mode.ask_if": "Ask me only at dangerous enemy attacks",
    "move.choose": "Choose {target}",
    "move.choose.any": "Choose: any target",
    "move.setting": "{section}: {value}",
    "move.add": "Add {card}{mode} to your attack",
    "move.add_wound": "Add {card} to your attack",
    "move.aid": "Aid the attack with {card}{mode}",
    "move.pick": "Take {card}",
    "move.pledge": "Pledge {card} to the next attack of {hero} (then choose: any target or one)",
    "move.unpledge": "Withdraw the pledge of {card}",
    "move.bottom": "Move {card} away (bottom / discard)",
    "move.option": "Choose option {n}",
    "move.react": "React with {card}",
    "move.defend": "Defend with {card}{mode}",
    "move.defend_wound": "Add {card} to your defense",
    "move.to_ally": "Send the attack to your ally {card}",
    "move.recover": "Put {card} on the Fatigue discard",
    "move.reward.equip": "Give {item} to {hero} (equipped, {part})",
    "move.reward.stash": "Put {item} in the party's stash",
    "move.reward.return": "Return {item} under the reward deck",
    "move.unknown": "A move of another version of the game",
    # ---- the rift's headline of its turn (service/games/beyond_the_rift.py rift_news)
    "rift.turn": "The rift's turn: {news}",
    **_you("rift.hit", "{enemies} hit {hero}.", "{enemies} hit you."),
    **_you("rift.hit.took", "{enemies} hit {hero} ({took}).", "{enemies} hit you ({took})."),
    **_you("rift.took", "{hero} took {took}.", "You took {took}."),
    "rift.wounds": ("{count} Wound", "{count} Wounds"),
    "rift.fatigue": ("{count} Fatigue", "{count} Fatigue"),
    **_you("rift.miss", "{enemies} attacked {hero}: no damage.", "{enemies} attacked you: no damage."),
    **_you("rift.special", "{enemy} used {ability} on {hero}.", "{enemy} used {ability} on you."),
    "rift.dead": ("{enemies} was defeated.", "{enemies} were defeated."),
    **_you("rift.engaged", "{enemies} engaged {hero}.", "{enemies} engaged you."),
    "rift.threat": "Threat is now {threat} (the party loses at {loss}).",
    "rift.spawn": ("New enemy: {enemies}.", "New enemies: {enemies}."),
    "rift.hero": "{hero}",  # a hero as the object of a rift's sentence (Ukrainian: "героя {hero}")
    "rift.a_hero": "a hero",
    "rift.an_ally": "an ally",
    "list.two": "{a} and {b}",
    "list.more": "{a}, {b}",
    # ---- standing orders' values
    "value.term": "{word}",
    "value.toggle": "toggle {card}",
    "value.toggle_for": "toggle {card} for {hero}",
    "value.first": "{hero} first",
    "value.same": "same as any attack",
    "value.margin": "attack + {n}",
    "value.discard_first": "{kind} cards",
    "value.discard_first.ap": "AP cards",
    "value.cards": ("{count} card", "{count} cards"),
    "value.hand_size": "hand size - 2",
    "value.ap": "{n} AP",
    "value.list": "{items}",
    "value.none": "none",
    "value.card": "{card}",
    "value.aid": "{card} for {hero}",
    "value.hero": "{hero}",
    "value.tiebreak.rotate": "{heroes} (rotates each round)",
    "value.tiebreak.fixed": "{heroes} (fixed)",
    "value.when": "{cond}: attack + {n}",
    # a WHEN line's condition, English as a plan types it (engine/beyond_the_rift/messages.py when_condition)
    "when.any": "any",
    "when.damage_at_least": "damage_at_least {n}",
    "when.attack_at_least": "attack_at_least {n}",
    "when.enemy": "enemy {enemy}",
    "sep.semicolon": "; ",
}

# ---- the board's card faces (service/games/beyond_the_rift.py card_face, board_look; board.html)
KINDS = {"attack": "Attack", "ap": "AP", "defense": "Defense", "special": "Special", "reaction": "Reaction",
         "wound": "Wound", "fatigue": "Fatigue", "ally": "Ally", "persistent": "In play", "door": "Door",
         "terrain": "Terrain"}
STAT_WORDS = {"ap": "AP", "attack": "attack", "defense": "defense"}  # a Wound or Fatigue card's hero side


def family_word(family: str) -> str:
    return family.capitalize()


KEYWORDS = {"persistent": "Persistent", "ally": "Ally"}
WINDOWS = {"on_special_ability": "on special ability", "after_quest_spawn": "after quest spawn",
           "own_attack_response": "own attack response"}


_VALUE_WORDS = {"true": True, "false": False, "none": None}

# Words of the vocabulary, by (context, word): their English.
TERMS: dict[tuple[str, str], str] = {
    **{("hero", key): board["name"] for key, board in CONTENT.boards.items()},
    **{("action", name): name for name in btr.TERMS["action"]},
    **{("item", item): CONTENT.items[item]["name"] for item in btr.TERMS["item"]},
    **{("part", part): words.PARTS[part] for part in btr.TERMS["part"]},
    **{("phase", phase): words.PHASES[phase] for phase in btr.TERMS["phase"]},
    **{("pile", pile): pile for pile in btr.TERMS["pile"]},
    **{("why.move", why): why for why in btr.TERMS["why.move"]},
    **{("why.detach", why): why for why in btr.TERMS["why.detach"]},
    **{("how", how): how for how in btr.TERMS["how"]},
    **{("stat", stat): stat.capitalize() for stat in btr.TERMS["stat"]},
    ("dur", "this_attack"): "for this attack",
    ("dur", "this_round"): "this round",
    **{("ability", ability): ability.capitalize() for ability in btr.TERMS["ability"]},
    ("status", "active"): "active again",
    ("status", "done"): "done",
    ("status", "final"): "final",
    **{("mode", mode): mode.replace("_", "-") for mode in btr.TERMS["mode"]},
    **{("mode_kind", kind): "AP" if kind == "ap" else kind for kind in btr.TERMS["mode_kind"]},
    **{("setting", key): key for key in btr.TERMS["setting"]},
    **{("section", key): words.SECTIONS[key] for key in btr.TERMS["section"]},
    ("section", "when"): "Other WHEN lines",
    **{("value", value): words.WORDS[_VALUE_WORDS.get(value, value)] for value in btr.TERMS["value"]},
    **{(f"value.{key}", value): words.KEY_WORDS[key][value] for key, values in btr.KEY_VALUES.items()
       for value in values},
    **{("enemy_step", text): text for text in btr.TERMS["enemy_step"]},
    **{("terrain", name): name for name in btr.TERMS["terrain"]},
    # the board's card faces (service/games/beyond_the_rift.py card_face, board_look) and titles
    **{("face", kind): word for kind, word in KINDS.items()},
    **{("side", stat): word for stat, word in STAT_WORDS.items()},
    **{("family", family): family_word(family) for family in sorted({e["family"] for e in CONTENT.enemies.values()})},
    **{("keyword", keyword): word for keyword, word in KEYWORDS.items()},
    **{("window", window): word for window, word in WINDOWS.items()},
    **{("scenario", sid): sc["title"] for sid, sc in CONTENT.scenarios.items()},
    **{("campaign", cid): campaign["title"] for cid, campaign in CONTENT.campaigns.items()},
}

CATALOG = GameCatalog(
    domain="beyond_the_rift",
    messages=MESSAGES,
    terms=TERMS,
    card_names={cid: card["name"] for cid, card in CONTENT.cards.items()},
)
