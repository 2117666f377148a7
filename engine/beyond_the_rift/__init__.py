"""Beyond the Rift: the cooperative game for 1-4 heroes (rules: ../shared/rules/beyond-the-rift.md).

Importing this package registers the game as "beyond-the-rift" (rules version 3).  Modules:

  content.py, activation.py   the content pack (data/*.json) loaded and validated; the table grammar
  model.py                    read-only questions about a state (stats, range, target priority, names)
  evolve.py                   events applied to a state, the turn count; the fast state copy
  primitives.py               rule building blocks that emit events (draws, damage, spawns, win/loss, H25)
  effects.py                  the interpreter of the card effect ops
  hero_phase.py               the open hero-phase window, attacks and aiding, step-wise actions, prompts
  enemy_phase.py              activation, enemy keywords, defense points and plans
  reactions.py                Reaction windows served by REACT lines or a prompt
  phases.py                   quest, draw and end phases, and the task loop
  answers.py                  a move routed to the rules it answers (orders, prompt, attack, action)
  orders.py                   standing orders: the plan and party settings, one `setting` move each
  setup.py, rewards.py        scenario setup with the campaign carry-over; rewards on a win (H26)
  views.py                    views and redacted events (data only)
  words.py                    every sentence and label: events, moves, the plain-text board, card text
  notation.py                 moves as short text (`move_text` / `parse_move`)
  upcast.py                   events of rules versions 1 and 2 in version 3's shape
  game.py                     the Game subclass (the engine contract, move list, timeout defaults)

Events are facts (ids, numbers, seats, keys): `enemy_step` names its activation step by `col` and `step`,
a result's `reason` is a code (`hero_died` with the dead hero's `seat`, `threat`, `boss_defeated`, ...),
and words.py makes every sentence from the event and the state it was applied to.

Moves as text (notation.py), after section 3.8's commands; the short form reads back to the same move:

    >>> import engine
    >>> game = engine.get("beyond-the-rift")
    >>> state = engine.replay(game, game.start(2, {"scenario": "tutorial"}, seed=1))
    >>> [game.move_text(state, 0, mv) for mv in game.legal_moves(state, 0)][:6]
    ['play BV05a mode 2', 'attack BV04a', 'attack BV01b', 'draw', 'cycle', 'discard-ap BV12a']
    >>> game.move_text(state, 0, {"type": "pledge", "card": "BV01b", "to": 1})
    'pledge BV01b to isolde'
    >>> game.parse_move(state, 0, "engage e1"), game.parse_move(state, 0, "done final")
    ({'type': 'engage', 'enemy': 'E1'}, {'type': 'done_final'})
    >>> game.parse_move(state, 0, "set tiebreak first:isolde")
    {'type': 'setting', 'key': 'tiebreak', 'value': 'first:1'}

Turns (`turn`): a turn begins each time the game waits on heroes again after a moment it waited on
nobody: each new round's hero phase, each defense or reaction prompt of the enemy phase, the rewards of a
win.  Inside a hero phase (DONE/UNDONE, targets asked, attack windows, the H25 question) the turn goes on.
"""

from ..core import register
from .game import BeyondTheRift

GAME = register(BeyondTheRift())

__all__ = ["GAME", "BeyondTheRift"]
