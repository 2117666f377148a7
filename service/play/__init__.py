"""Playing: the one move path and game creation (moves.py), the emails a move causes (emails.py), the
recorded end (ending.py), timeouts and the sweep (timeouts.py), follow-up games (followups.py)."""

from service.play.batch import GameOver
from service.play.moves import Outcome, handle, new_game

__all__ = ["GameOver", "Outcome", "handle", "new_game"]
