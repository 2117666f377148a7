"""Beyond the Rift: the cooperative game for 1-4 heroes (rules: ../shared/rules/beyond-the-rift.md).

Importing this package registers the game as "beyond-the-rift".  Modules:

  content.py, activation.py   the content pack (data/*.json) loaded and validated; the table grammar
  model.py                    read-only questions about a state (stats, range, target priority)
  evolve.py                   events applied to a state; the fast state copy
  primitives.py               rule building blocks that emit events (draws, damage, spawns, win/loss)
  effects.py                  the interpreter of the card effect ops
  hero_phase.py               the open hero-phase window, attacks and aiding, step-wise actions
  enemy_phase.py              activation, enemy keywords, defense points and plans
  phases.py                   quest, draw and end phases, and the task loop
  setup.py, rewards.py        scenario setup with the campaign carry-over; rewards on a win
  text.py                     views, redaction, sentences, the plain-text board
  game.py                     the Game subclass (engine contract, move list, timeout defaults)
"""

from ..core import register
from .game import BeyondTheRift

GAME = register(BeyondTheRift())

__all__ = ["BeyondTheRift", "GAME"]
