"""Players' names as everyone else reads them.

Whoever fills in the start form names every seat (the command line too), so a name is text a
stranger chose, and it goes into the subject, the first line and the body of every email of the game,
into the To header, the boards, the "since your last turn" lines, every page and the JSON API.  A name
like "Claim your prize at http://evil.example/win" would turn every one of them into the stranger's
advertisement, with a link the mail client makes clickable.  So a name is shown only as `unlinkable`
leaves it: letters, digits, spaces, hyphens and apostrophes, at most NAME_CAP characters.  Every way
a stored name is read for showing goes through here (service/store/rows.py `seat_names` and
`player_names` give the names of a game's seats; `player_name` the name of one), so names stored
before the start form refused such names are shown the same way.

The start form and the command line refuse a name that this would change (`name_problem`): what the
creator types is then exactly what everyone reads.
"""

from __future__ import annotations

from service.lang import N_, Nf_

# At most this many characters of a name are shown (and accepted at the start).
NAME_CAP = 40
NAME_KEEPS = frozenset(" -'")


def unlinkable(name: str, cap: int = NAME_CAP, fallback: str = "Someone") -> str:
    """`name` with only letters, digits, spaces, hyphens and apostrophes (any other character becomes a
    space), at most `cap` characters: mail clients autolink "evil.example", "http://x", "a@b" and
    "www.x", and each needs a dot, a colon, a slash or an @, which never survive.  `fallback` when
    nothing is left."""
    kept = "".join(ch if ch.isalnum() or ch in NAME_KEEPS else " " for ch in name)
    return " ".join(kept.split())[:cap].strip() or fallback


# Names the service gives seats itself, shown as they are: a bot seat's (service/play/bots.py).  No
# typed name can be one (`name_problem` refuses the parentheses), and none holds a link.
OUR_NAMES = frozenset({"Bot (easy)", "Bot (normal)", "Bot (strong)"})


def player_name(name: str, seat: int) -> str:
    """A seat's name as pages, emails and the JSON API show it ("Player 2" when nothing of it is left)."""
    if name in OUR_NAMES:
        return name
    return unlinkable(name, fallback=f"Player {seat + 1}")


def name_problem(name: str) -> str | None:
    """Why the start refuses a typed name (None: it is shown exactly as typed, spaces aside); marked for
    the catalogs (a page says it with service/web/errors.py `said`)."""
    if not name.strip().isprintable():  # the words service/play/moves.py's own check uses
        return N_("A player's name must be one line of printable characters (no line breaks or control "
                  "characters).")
    tidy = " ".join(name.split())
    if unlinkable(tidy, fallback="") != tidy:
        odd = " ".join(sorted({ch for ch in tidy if not (ch.isalnum() or ch in NAME_KEEPS)}))
        return Nf_("The name \"%(name)s\" has %(odd)s in it: a name may hold only letters, digits, spaces, hyphens "
                   "and apostrophes, at most %(num)d characters (it goes into the subject of every email of the "
                   "game).", name=tidy, odd=odd, num=NAME_CAP)
    if len(tidy) > NAME_CAP:
        return Nf_("The name \"%(name)s…\" is too long: a name has at most %(num)d characters.", name=tidy[:NAME_CAP],
                   num=NAME_CAP)
    return None
