"""Riftwalker (2–4 players) behind the engine contract; registered as "riftwalker".

Rules: ../shared/rules/riftwalker.md (digest §1–8, element cards §2, our rift set §9.4 in the power
language of §9.3, house rules H1–H9, and the accepted balance change: Stormcall Spire ST-06 bursts
Storm rifts only).  The cards are data (cards.json, checked by cards.py), powers are interpreted
(powers.py), a turn is a sequence of small decisions (flow.py) whose facts `evolve` folds
(state.py).  Views are data (views.py), what a seat may see of an event is redact.py, moves as
text are notation.py, and every word shown to people is made in words.py from those.

Turns (`Riftwalker.turn`): `number` is the number of the turn begun last, one more at every
"turn" event (the setup's first turn is 1); `seats` is the active player alone, even while an
opponent decides inside that turn (a discard from their own hand, Flooded Causeway): that seat is
then the one `to_act` names.  `phase` is the step: "element" (also while placing the element
card), "rift" (also while a rift's power resolves), "burst", "refresh", or "over" (then `seats`
is empty and `number` stays the last turn's).

Timeout default (H8), `Riftwalker.default_move`: in the Element step flip the first slot in reading
order (top-left); skip the Rift step and the Burst step (and, inside a power, decline every
optional choice — where a choice is forced, take the first legal one; an opponent forced to
discard gives the first card of their hand); in the Refresh step discard nothing (draw up to 3).
The "skip" timeout policy plays the same moves.

Moves as text (`move_text` / `parse_move`): the move's type and its one argument, with slots,
players and options counted from 1 as people read them:

    flip 1 .. flip 9, put N, grow N, swap N, swap-with N      grid slots, 1 = top left
    place Fire                                                 a face of the top element card
    explore FI-02, shift ID, activate ID, return ID,           rift cards by id (or by a name
    force-burst ID, discard ID, tuck ID, take ID, bottom ID    that picks one card)
    burst FI-02                 burst with a line
    burst FI-02 by ST-06        burst with the burst-step power that rift granted
    target 2 (Player 2), choose 1 (the first option), draw 2 (cards)
    skip, done, do, search, tuck-top

Any case, hyphens or underscores; every move also reads in the generic `type key=value` form
(engine/kit.py), which is how the rare move without a short form (a whole-turn order, H9) is written.
Text that spells no move raises IllegalMove with code "unreadable".

    >>> import engine
    >>> game = engine.get("riftwalker")
    >>> state = engine.replay(game, game.start(2, {}, seed=1))
    >>> game.turn(state)
    Turn(number=1, phase='element', seats=(1,))
    >>> [game.move_text(state, 1, move) for move in game.legal_moves(state, 1)[::5]]
    ['flip 1', 'flip 6', 'place Water']
    >>> game.parse_move(state, 1, "Place water")
    {'type': 'place', 'element': 'Water'}
    >>> game.parse_move(state, 1, "explore burn memory")
    {'type': 'explore', 'card': 'FI-01'}
    >>> game.parse_move(state, 1, "fly away")
    Traceback (most recent call last):
    engine.errors.IllegalMove: 'fly away' is not a move: 'fly' is not a Riftwalker move

Events are facts (ids, seats, numbers, element names), worded only by words.describe_event:
setup {players, first, grid, edeck, rdeck}; deal/draw {seat, cards[, by_power]}; turn {seat, number,
final}; flip/grow {seat, slot, card, from, to[, use]}; place {seat, slot, card, up, element,
replaced, use}; swap {seat, a, b}; explore {seat, card, by_power}; shift {seat, owner, rift, rot,
by_power}; activate {seat, owner, rift}; return {seat, owner, rift, beneath}; discard {seat, zone,
owner, card, beneath[, refresh]}; burst {seat, owner, rift, rot, via, by_power}; look {seat,
cards}; take/bottom {seat, card}; tuck {seat, src, card, host, host_owner, face, owner[, rot,
beneath]}; grant {seat, rift, extra | burst_step}; end_triggered {seat, reason, left}; game_over;
control {turn, stack, end, over} (closes every move).  They have not changed since rules_version
"1", so `upcast` leaves old events as they are.

The view (`views.view`) is data: the grid, lines, deck sizes, each seat's piles (card names and
rules text from the card data), the seat's own hand, the turn, `to_act`, and `pending`: None
between the steps of a turn, else the power step being decided, {"seat", "rift" (None for the offer
to activate the rift just explored or shifted), "op", "rules"}.  `words.pending_text(view)` and
`words.render_text(view)` put it in words.
"""

from engine.core import register

from .game import Riftwalker

GAME = register(Riftwalker())

__all__ = ["GAME", "Riftwalker"]
