"""Riftforce with all 18 guilds: the 2-player duel (rules: ../shared/rules/riftforce.md §1-§8),
team play for 3-4 players (§9-§10) and solo against the trainer (§11).

    import engine
    game = engine.get("riftforce")
    events = game.start(players=2, options={"guilds": "base"}, seed=7)   # or {"guilds": "all"}
    events = game.start(players=4, options={"mode": "team"}, seed=7)     # or players=3
    events = game.start(players=1, options={"mode": "solo", "stars": {"5": 2, "6": 1, "7": 1},
                                            "and": {"number": 6, "end": "A"}}, seed=7)
    state = engine.replay(game, events)

The shapes of views, moves and events are in VIEW.md next to this file (a stable contract).

Modules: cards (guild and card data), options (the start options: schema and check), state (state
layout, `evolve`, fast copy), effects (the working context of one move, an engine.kit.Sink:
damage, destruction, scoring, drawing), abilities (the 18 guild abilities and the on-play effects
as resumable steps), moves (legal moves, the action flow, the end rule), team (team play: draft,
zones, turn order, end), solo (the trainer's setup and plans), trainer (the bots' challenge
abilities and the & card), view (views and the result: data), events (upcast of older rules
versions, redaction, the seats an event affects), notation (moves as text), words (every sentence
and label, and the plain-text board: the only module with prose), game (the `Game` class).  Data:
plans.json (the plan deck, a placeholder per Q7) and challenges.json (the challenge cards).

Events are facts (ids, numbers, seats); `describe_event(event, seat, state)` words them from the
state they were applied to.  rules_version "3" (events.py): events no longer carry `"mode"` (the
state knows it; `upcast` strips it from rules_version "1" logs), Q15, Q16 apply ("2"), and the solo
trainer's guilds come after the keep ("3"; a "2" solo game goes on as it was set up).

Turns (`turn`): one seat decides at a time.  The number grows by one when a seat's turn begins:
the first draft pick is turn 1, every pick that hands the draft to another seat (a seat that picks
again, as in solo's keep-4 and the guilds it then gives the trainer, goes on with its turn) and
every `turn` event begin one (each action of the duel and of team play; in solo the player's next
action once the trainer's plan ran, though the same seat acts again).
Follow-up decisions of an action (further cards of a Play, elementals of an Activate, choices
inside an ability or for the trainer's plan) never change it.  `teams`: team play only, [[0, 2],
[1, 3]] with 4 players, [[0, 2]] with 3 (seat 1 plays alone).  `result`: scores by seat as a string
(team play: each seat its team's score; solo: seat "0" only, the trainer's under "trainer"),
winners, "reason" ("score" | "stalemate"), "actions"; team play adds "teams", solo "plans".

Moves as text (notation.py; locations counted from 1; `parse_move` also reads "Fire 5" for the one
Fire 5 on offer, a missing "@", and kit's `type key=value` form):

    >>> game.move_text(state, 0, {"type": "play", "card": "fire-5a", "loc": 2})
    'play fire-5a @3'
    >>> game.parse_move(state, 0, "discard ice-6b")
    {'type': 'activate', 'card': 'ice-6b'}
    >>> game.parse_move(state, 0, "activate ice-6a"), game.parse_move(state, 0, "move @4")
    ({'type': 'activate_elemental', 'card': 'ice-6a'}, {'type': 'move_to', 'loc': 3})

Other texts: `pick fire`, `give acid` (solo: a guild for the trainer), `end` (end_play), `done`,
`check`, `aim @2`, `place @2`, `push @4`, `target fire-7a`, `heal water-6c`, `bot ice-5a`.

Decisions are step-wise: Play is a first card and location, then optional further cards or
"end_play"; Activate is a discard, then elementals one at a time (each resolved fully, every
choice inside its ability asked as a follow-up decision of the same seat) until 3 or "done";
draft picks are moves.  A continuation with one possible outcome is resolved without asking.

Timeout move (`default_move`, the "auto" policy): Check & Draw when legal (fewer than 7 in hand);
inside a Play in progress "end_play"; inside an Activate "done"; at a choice inside an ability,
the first option; in the draft, the first guild on offer; with a full hand at the start of a turn,
the first card of the hand played at location 1 (the next timeout then ends that Play).  Team
play uses the same
policy.  Solo: the decisions the player makes for the trainer's plan take the first option on
offer: "bot" (which eligible bot acts: the first in location order, front first), "aim" (6★★: the
lower adjacent location), "push" (6★★★: the lower adjacent location), "target" (5★★★★ tie: the
front-most); the keep-4 setup takes the first summoner on offer, and the trainer's guilds the
first that may be given (the 2 offered and set aside come first).  The "skip" policy ends a Play or
an Activate in progress (`pass_types`) and otherwise does what "auto" does (a turn cannot be
skipped).

Rulings and house rules (rules §13 and this package):
- Q1: damage applies step by step; an elemental is destroyed (and scored) the moment its damage
  reaches its number.  Acid fixes its two targets when it starts (abilities.ACID_TARGETS_FIXED_AT_START).
- Q2: Plant and Magnet do not move an enemy that died; Magnet still moves itself.
- Q3: a Music capture scores the normal kill RF (1, Crystal 2) for the Music player; the captured
  card loses its damage, is played adjacent to the Music (Earth/Love on-play effects fire), and from
  then on belongs to its captor (discarded to the captor's pile; effects.CAPTURED_CARDS_STAY_WITH_CAPTOR
  = False returns it to its first owner's pile instead).
- Q4: any score reaching 12 triggers the end; the game ends after an action of the second player
  (without the start marker) unless scores are tied; then another pair of actions follows.
- Q12: Activate may activate 0 elementals.  Q13: drawing stops when pile and discard are empty.
- Q14: when no card is off the board for either player and nobody controls a location, the game
  ends there (reason "stalemate"): most RF wins, a tie stands with both as winners, the
  equal-actions rule does not apply.  Team play: the same with zones.
- Q15: a choice inside an ability must make its step do something when one can: Plant aims only
  at an adjacent location holding an enemy (one is taken unasked; none: nothing happens); Light's
  heal and Love's on-play heal go to a damaged ally when there is one (the player picks which).
  Mandatory moves (Water, Air, Shadow, Beast, Sand, Magnet) keep free destinations.
- Q16: in the base draft the summoner dealt to each player is known only to that player until the
  draft ends (views, redacted events and words); then every summoner in play is public; the
  removed summoner is never shown.  The Beyond draft (§9, duel and team) deals face up.

Team play (team.py; rules §9-§10, Q5): seats 0 and 2 are team 0, seats 1 (the lone player of 3)
and 3 are team 1; the player-order card per Q5 (3 players: seats 0, 1, 2, 1; 4 players: a toss,
then 0, 1, 2, 3 or 1, 2, 3, 0); the draft picks in that order.  A teammate's elementals are
allies for every ability and count for control (Q5).  Rulings: when you activate a teammate's
elemental (number option) its ability is yours: a Star draws into your hand, a Music's capture
becomes yours; the symbol option reaches only elementals you own.  The duel's stalemate ruling
applies with zones (Q14: no card off the board and no seat's Check & Draw can score).

Solo (solo.py, trainer.py; rules §11, Q6-Q11, Q17): setup offers 6 of all 18 summoners; once the
player kept 4, the trainer's 4 guilds come from the 14 not kept (the 2 set aside included), by
the option `trainer_guilds`: "choose" (the default: the player gives them, `give` moves), "random"
(drawn with the move that completes the keep) or 4 named guilds.  Q17 (proposed for the rules
file): a named guild the player kept cannot be given; the named ones still free are given and the
player chooses the rest from the guilds not kept.  The trainer is stored as seat 1 and never acts
through moves; its plan runs inside `play` after each of the player's actions.  It is no player:
`seats_affected` leaves its seat out.  Q6: the player
picks the acting bot among eligible ones and any choice inside a bot's ability; & end A moves the
bot where its challenge deals the most damage (dry run; ties: lowest location), & end B heals the
most damaged bot (ties: lowest location, then front-most).  Q1 applies to bots too (5★★'s repeat
and 5★★★'s "second" are worked out from what is left).  6★★ offers only adjacent locations
holding one of your elementals (the bot must damage one).  Q7: plans.json is a placeholder,
marked in the log and view.  Q8: 6★★★★ is marked unverified.  Q10, Q11 as written.  Kill RF: a
bot's kill scores 1 (+1 for your Crystal); a Crystal bot gives you no bonus; your Shadow bonus and
Acid's zero stand.  A bot captured by your Music becomes your elemental with its guild's ability.
"""

import engine

from .game import Riftforce

GAME = engine.register(Riftforce())

__all__ = ["GAME", "Riftforce"]
