"""Every kind of email rendered from the same inputs, reproducibly: the emails of the catalog
(tests/service/email_catalog.py) and the kinds it does not send (an invitation, the timeouts' digest,
the daily digest, a webhook's body), written out byte for byte but for the Date header.

Randomness is seeded (row keys, nonces, a deal's secret) and signed links carry a fixed timestamp, so
two runs of the same code write the same files: run it on two commits and compare to see what a change
did to the emails (`diff -r`).  tests/service/email_snapshot.json holds the digest of each email as
main rendered it through the web app before the worker rendered without it (issue #26); a change that
means to change emails writes it again (`--digests`) and says so in its commit.

    python -m tests.service.email_snapshot OUT_DIR       # every email, one file each, and digests.json
    python -m tests.service.email_snapshot --digests     # rewrite tests/service/email_snapshot.json
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import secrets
from collections.abc import Iterator
from datetime import date, timedelta
from email.message import EmailMessage
from pathlib import Path
from unittest import mock

import sqlalchemy as sa
from itsdangerous import timed

from service import store
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Person, Webhook
from tests.service import email_catalog
from tests.service.email_catalog import T0, at

# What differs between two renderings of one row: when it was sent.
VARYING_HEADERS = frozenset({"Date"})


@contextlib.contextmanager
def reproducible(seed: int = 2026) -> Iterator[None]:
    """Seeded `secrets` (row keys, nonces, a deal's secret, feed ids) and a fixed signing time."""
    rng = random.Random(seed)
    with mock.patch.object(secrets, "token_hex", lambda n=32: rng.randbytes(n).hex()), \
            mock.patch.object(secrets, "token_bytes", lambda n=32: rng.randbytes(n)), \
            mock.patch.object(secrets, "token_urlsafe", lambda n=32: rng.randbytes(n).hex()), \
            mock.patch.object(secrets, "randbelow", lambda n: rng.randrange(n)), \
            mock.patch.object(timed.TimestampSigner, "get_timestamp", lambda self: int(T0.timestamp())):
        yield


def wire(message: EmailMessage) -> str:
    """The message as sent, without the headers that differ between sends."""
    copy = EmailMessage(policy=message.policy)
    for name, value in message.items():
        if name not in VARYING_HEADERS:
            copy[name] = value
    for part in message.iter_parts():
        copy.attach(part)
    text = copy.as_string()
    # The MIME boundary is drawn at random as the message is written out.
    boundary = copy.get_boundary()
    return text.replace(boundary, "BOUNDARY") if boundary else text


def extra(catalog: email_catalog.Catalog) -> dict[str, str]:
    """The kinds the catalog does not send, from its games: an invitation to an address that never
    agreed, the timeouts' digest of two rows, the daily digest, a webhook's body of each shape, the
    lobby's and the rematch's emails."""
    from service.mail import compose, digest, kinds, talk_email, webhooks
    from service.people import digests
    from service.play import new_game

    found: dict[str, str] = {}
    game_id = new_game("riftforce", [("Ana", "ana@example.org"), ("Eve", "eve@example.org")], seed=11, now=at(102))
    catalog.games["invitation"] = game_id
    catalog.deliver()
    for sample in catalog.of(game="invitation"):
        found[f"invitation {sample.kind} seat {sample.seat}"] = wire(sample.message)
    with read_session(get_engine()) as session:
        turns = [s for s in catalog.of(kind="turn", game="riftwalker 3") if s.seat == 0][-2:]
        mails = [compose.mail_of(session, session.get(Outbox, s.row_id)) for s in turns]
        found["timeouts digest"] = wire(digest.build(session, mails))
        for shape in ("generic", "discord", "slack"):
            for sample in catalog.kinds(turns=1)[:12]:
                row = session.get(Outbox, sample.row_id)
                hook = Webhook(id=1, person="x", url="https://hooks.example.org/x", shape=shape, secret="s" * 64)
                with mock.patch.object(session, "get", lambda model, key, *a, hook=hook, get=session.get, **k:
                                       hook if model is Webhook else get(model, key, *a, **k)):
                    call = webhooks.prepare(session, row, compose.mail_of(session, row))
                body = call.body.decode()
                if shape == "generic":
                    body = json.dumps(json.loads(body), sort_keys=True)
                found[f"webhook {shape} {sample.game} {sample.kind}"] = body
    # Table talk told at once (its own email, kind "talk"), and the account link (kind "account_link").
    from service.talk import messages, notify

    walker = catalog.games["riftwalker 3"]
    with write_session(get_engine()) as session:
        players = store.players_of(session, walker)
        notify.set_at_once(session, players[1].address_key, True)
        messages.post(session, players[0], "Careful with the <b>rift</b>: https://example.org/x", now=at(103))
    with read_session(get_engine()) as session:
        rows = session.execute(sa.select(Outbox).where(Outbox.kind == "talk")).scalars().all()
    for row in rows:  # what the delivery does first (having claimed the row): take the talk it tells
        with write_session(get_engine()) as session:
            session.execute(sa.update(Outbox).where(Outbox.id == row.id).values(status="sending"))
        talk_email.decide(row.id, row.attempts, [(row.game_id, row.player_id)])
    catalog.deliver()
    for sample in catalog.of(kind="talk"):
        found[f"talk seat {sample.seat}"] = wire(sample.message)
    with write_session(get_engine()) as session:
        player = store.players_of(session, walker)[2]
        session.add(Outbox(game_id=walker, player_id=player.id, kind="account_link", seq=store.get_game(session, walker).seq, status="pending",
                           params={"issued_ms": int(at(104).timestamp() * 1000)}, message_id="<account@x>",
                           row_key="k" * 16))
    with mock.patch("service.mail.kinds.utcnow", lambda: at(104)):
        catalog.deliver()
    for sample in catalog.of(kind="account_link"):
        found["account link"] = wire(sample.message)
    # A teammate's note (kind "partner"): no longer written, but rows queued before still render.
    team = catalog.games["riftforce team 4"]
    with write_session(get_engine()) as session:
        player = store.players_of(session, team)[2]
        session.add(Outbox(game_id=team, player_id=player.id, kind="partner", seq=store.get_game(session, team).seq,
                           status="pending", params={}, message_id="<partner@x>", row_key="p" * 16))
    catalog.deliver()
    for sample in catalog.of(kind="partner"):
        found["partner"] = wire(sample.message)
    # The daily digest: Bo takes the digest instead of turn emails.
    with write_session(get_engine()) as session:
        session.execute(sa.update(Person).where(Person.email == "bo@example.org").values(notify_mode="digest"))
    row_id = digests._queue("bo@example.org", date(2026, 11, 28), at(120))
    assert row_id is not None
    with read_session(get_engine()) as session:
        row = session.get(Outbox, row_id)
        found["daily digest"] = wire(compose.build(session, row))
        assert kinds.get(row.kind).name == "digest"
    # The lobby's two kinds: a join asked by typing an address (its confirmation), then the game expiring
    # unfilled (to the creator, the only confirmed seat); and a rematch asked by Bo after the duel ended.
    from service.play import lobby, rematch

    opened = lobby.open_game("riftwalker", "", {}, 3, ("Ana", "ana@example.org"), listed=True, now=at(130))
    assert opened.id is not None
    catalog.games["lobby"] = opened.game_id
    lobby.ask_to_join(opened.id, opened.key, "Cy", "cy@example.org", now=at(130))
    catalog.deliver()
    lobby.expire(at(130 + 24 * 60))
    catalog.deliver()
    duel = catalog.games["riftforce duel"]
    with read_session(get_engine()) as session:
        bo = store.players_of(session, duel)[1].id
    rematch.ask(duel, bo, "swapped", now=at(131))
    catalog.deliver()
    # Ana says no thanks: Bo, who asked, is told.
    with read_session(get_engine()) as session:
        ana = store.players_of(session, duel)[0].id
    rematch.decline(duel, ana, now=at(132))
    catalog.deliver()
    # Bo asks anew (a closed rematch can be asked again): the latest rematch email is one that can still
    # be answered, the one the catalog's samples render again.
    rematch.ask(duel, bo, "kept", now=at(133))
    catalog.deliver()
    # A seat handed over for good (service/play/handover.py): in a timed game of three, Cy's seat times
    # out twice while the others play; they vote to invite Eve, who accepts (the invitation to her, then
    # the old holder's notice and the seat's first email to her).
    import engine
    from service.play import bots, handle, handover
    from service.play.timeouts import sweep
    from service.store.models import Game, Invitation

    t0 = at(140)
    seats = [("Ana", "ana@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
    table = catalog.games["handover"] = new_game("riftwalker", seats, seed=12, deadline_hours=24, now=t0)
    catalog.deliver()
    hours = 0
    for _ in range(400):
        with read_session(get_engine()) as session:
            if handover.timed_out_turns(session.connection(), table, {}).get(2, 0) >= 2:
                break
            game = session.get(Game, table)
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        if seat == 2:
            hours += 25
            sweep(t0 + timedelta(hours=hours))
        else:
            hours += 1
            move = bots.choose(engine.get("riftwalker"), state, seat, game.secret, game.seq, "easy")
            handle(table, seat, move, game.seq, now=t0 + timedelta(hours=hours))
        catalog.deliver()
    with read_session(get_engine()) as session:
        players = store.players_of(session, table)
    when = t0 + timedelta(hours=hours + 1)
    handover.vote(players[0].id, players[0].link_generation, 2, "person", "eve@example.org", "Eve", when)
    handover.vote(players[1].id, players[1].link_generation, 2, "same:0", "", "", when)
    catalog.deliver()
    with read_session(get_engine()) as session:
        invitation = session.execute(sa.select(Invitation).where(Invitation.game_id == table)
                                     .order_by(sa.desc(Invitation.id))).scalars().first()
    assert invitation is not None
    handover.accept(invitation.id, when + timedelta(hours=1))
    catalog.deliver()
    # An open game with a bot seat, joined by Cy, cancelled by its creator: Cy is told.
    cancelled = lobby.open_game("riftwalker", "", {}, 4, ("Ana", "ana@example.org"), listed=True,
                                bots={1: "easy"}, now=when)
    catalog.games["lobby cancelled"] = cancelled.game_id
    lobby.join_signed_in(cancelled.id, cancelled.key, "Cy", "cy@example.org", now=when)
    lobby.cancel(cancelled.id, cancelled.key, "ana@example.org", now=when)
    catalog.deliver()
    for kind in ("lobby_join", "lobby_expired", "lobby_cancelled", "rematch", "rematch_declined", "seat_invitation", "seat_handed_over", "seat_taken"):
        for sample in catalog.of(kind=kind):
            found[f"{kind} seat {sample.seat}"] = wire(sample.message)
    return found


GOLDEN = Path(__file__).with_name("email_snapshot.json")


def snapshot(app) -> dict[str, str]:
    """Every email, keyed by what it is (game, kind, seat, position, row), as sent but for its Date.
    `app`: the Flask app, or the worker's app (service.running.Host), on a migrated empty database."""
    with reproducible(), app.app_context():
        catalog = email_catalog.build(app)
        found = {f"{n:04d} {s.game} {s.kind} seat {s.seat} seq {s.seq}": wire(s.message)
                 for n, s in enumerate(catalog.samples)}
        found.update(extra(catalog))
    return found


def snapshot_digest(found: dict[str, str]) -> dict[str, str]:
    return {key: hashlib.sha256(text.encode()).hexdigest() for key, text in found.items()}


def differences(found: dict[str, str]) -> list[str]:
    """The emails whose digest is not the golden one (or that are missing or new)."""
    golden = json.loads(GOLDEN.read_text())
    digests = snapshot_digest(found)
    return sorted(key for key in golden.keys() | digests.keys() if golden.get(key) != digests.get(key))


def write(found: dict[str, str], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for key, text in found.items():
        (folder / (key.replace(" ", "_").replace("/", "-") + ".eml")).write_text(text, encoding="utf-8")
    (folder / "digests.json").write_text(json.dumps(snapshot_digest(found), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    import sys
    import tempfile

    from service.migrate import upgrade
    from tests.conftest import make_app

    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "app.sqlite"
        upgrade(f"sqlite:///{database}")
        built = make_app(Path(scratch), f"sqlite:///{database}")
        found = snapshot(built)
        built.extensions["riftpost.db"].dispose()
    if sys.argv[1:] == ["--digests"]:
        GOLDEN.write_text(json.dumps(snapshot_digest(found), indent=1, sort_keys=True) + "\n")
        print(f"{len(found)} digests written to {GOLDEN}")
    else:
        write(found, Path(sys.argv[1]))
        print(f"{len(found)} emails written to {sys.argv[1]}")
