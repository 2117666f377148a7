"""Riftforce, the 2-player duel with all 18 guilds (rules: ../shared/rules/riftforce.md §1-§8).

    import engine
    game = engine.get("riftforce")
    events = game.start(players=2, options={"guilds": "base"}, seed=7)   # or {"guilds": "all"}
    state = engine.replay(game, events)

The shapes of views, moves and events are in VIEW.md next to this file (a stable contract).

Modules: cards (guild and card data), state (state layout, `evolve`, fast copy), effects (the
working context of one move: damage, destruction, scoring, drawing), abilities (the 18 guild
abilities and the on-play effects as resumable steps), moves (legal moves, the action flow, the
end rule), view (views, words, redaction), text (plain-text board), game (the `Game` class).

Decisions are step-wise: Play is a first card and location, then optional further cards or
"end_play"; Activate is a discard, then elementals one at a time (each resolved fully, every
choice inside its ability asked as a follow-up decision of the same seat) until 3 or "done";
draft picks are moves.  A continuation with one possible outcome is resolved without asking.

Timeout move (`default_move`): Check & Draw when legal (fewer than 7 in hand); inside a Play in
progress "end_play"; inside an Activate "done"; at a choice inside an ability, the first option;
in the draft, the first guild on offer; with a full hand at the start of a turn, the first card
of the hand played at location 1 (the next timeout then ends that Play).

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
- Light's heal and Love's on-play heal must go to a damaged ally when there is one (the step
  happens "as far as possible"); the player chooses which.
- Plant may aim at an adjacent location without enemies (the strike is lost); if neither adjacent
  location has an enemy nothing happens and no choice is asked.
- The summoners dealt at random in the draft are public (they are laid face up).
"""

import engine

from .game import Riftforce

GAME = engine.register(Riftforce())

__all__ = ["GAME", "Riftforce"]
