"""The deal check (service/store/deal.py): a game started from the form is dealt from a secret that
nothing its creator typed or saw tells; the secret appears on no page, JSON answer or email while the
game runs, only its SHA-256; once the game is over the secret is shown, and it replays to the stored
log (`flask verify --game N`, `--record FILE`), which a changed commitment, secret or log fails."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import sqlalchemy as sa

import engine
from service import store
from service.mail import outbox
from service.play import ending
from service.store import deal, get_engine, read_session, write_session
from service.store.models import Game, utcnow
from tests.consent import confirm_creator, preconsent
from tests.service import toygame
from tests.service.helpers import current, outbox_rows, play_one, play_to_end
from tests.web.pages import START_FORM, csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
BASE = "http://riftpost.test"
SECRET_ON_PAGE = re.compile(r'<code class="deal-secret">(\d+)</code>')
COMMITMENT_ON_PAGE = re.compile(r'<code class="deal-commitment">([0-9a-f]{64})</code>')


def _start(client, game: str = toygame.NAME, **fields) -> int:
    """A game started through the start form as its creator (Ann) fills it in; its id."""
    form = {"csrf_token": csrf_token(text(client.get(START_FORM))), "game": game,
            **{f"name{i}": name for i, (name, _) in enumerate(PLAYERS)},
            **{f"email{i}": email for i, (_, email) in enumerate(PLAYERS)}, **fields}
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, text(response)
    game_id = int(response.headers["Location"].split("/")[-2])
    confirm_creator(game_id)  # Ann confirms the game she started (its "did you start it?" email)
    return game_id


def _game(game_id: int) -> Game:
    with read_session(get_engine()) as session:
        return store.get_game(session, game_id)


def _setup(game_id: int) -> list[dict]:
    with read_session(get_engine()) as session:
        return [row.payload for row in store.stored_events(session, game_id) if row.kind == "setup"]


def _mails(sink, game_id: int) -> list:
    """Every email of the game so far, sent through the real SMTP path into the test sink."""
    # (Ann's "did you start it?" was answered before it went: confirm_creator; it is no longer wanted.)
    rows = [row for row in outbox_rows(game_id) if row.status == "pending" and row.kind != "invitation"]
    for row in rows:
        assert outbox.deliver(row.id) == "sent"
    sent = {row.message_id for row in outbox_rows(game_id) if row.status == "sent"}
    return [m for m in sink.wait_for(len(sent)) if m["Message-ID"] in sent]


def _body(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def _whole(message) -> str:
    """An email as its reader gets it: every header, every text part decoded (a long number in a
    quoted-printable body is split across lines in the raw message)."""
    return "\n".join([*(f"{name}: {value}" for name, value in message.items()), _body(message)])


def _crawl(client, starts: list[str], limit: int = 600) -> dict[str, str]:
    """Every page and JSON answer reachable by GET from `starts` through the site's own links (the
    static files and the dev mailbox left out): url -> text."""
    seen: dict[str, str] = {}
    todo = deque(starts)
    while todo and len(seen) < limit:
        url = todo.popleft()
        parts = urlsplit(urljoin(BASE + "/", url))
        if parts.netloc not in ("", "riftpost.test") or parts.path.startswith(("/static/", "/dev/")):
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if path in seen:
            continue
        response = client.get(path)
        seen[path] = response.get_data().decode("utf-8", "replace")  # the icon is not text
        if response.status_code < 400 and response.mimetype == "text/html":
            for link in re.findall(r'(?:href|action)="([^"#]+)"', seen[path]):
                todo.append(link.replace("&amp;", "&"))
    return seen


def _old_thread_key(game: Game, secret: str) -> str:
    """The Message-ID key the seed once gave (service/mail/threads.py): were a drawn secret hashed in
    there, every email would carry a value computed from it."""
    return hashlib.sha256(f"{game.id}:{secret}:{game.created_at:%Y%m%d%H%M%S}".encode()).hexdigest()[:12]


def _appearances(secret: str) -> list[str]:
    """The ways a secret could be written out: decimal, hex."""
    return [secret, f"{int(secret):x}", f"{int(secret):X}"]


def test_a_game_started_from_the_form_cannot_be_predicted_from_anything_the_creator_typed_or_saw(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent(*[email for _, email in PLAYERS])
    # The form once had a seed field; one posted anyway, twice the same form: neither deal follows it.
    ids = [_start(client, options="target=9", seed="7") for _ in range(2)]
    games = [_game(game_id) for game_id in ids]
    assert games[0].secret != games[1].secret and games[0].commitment != games[1].commitment
    toy = engine.get(toygame.NAME)
    typed = toy.start(2, {"target": 9}, seed=7)
    for game in games:
        assert deal.drawn(game.secret) and int(game.secret).bit_length() > 128
        assert game.commitment == hashlib.sha256(game.secret.encode()).hexdigest()
        setup = _setup(game.id)
        assert setup != typed  # not the deal of the seed typed
        assert setup == toy.start(2, {"target": 9}, seed=int(game.secret))  # the secret's deal
    assert _setup(ids[0]) != _setup(ids[1])  # the same form, two deals

    for game in games:
        mails = _mails(sink, game.id)
        assert len(mails) == 2  # Bob's invitation, Ann's first turn
        seen = _crawl(client, ["/", "/games/new", f"/games/{game.id}/created", f"/games/{game.id}",
                               f"/api/games/{game.id}", f"/api/games/{game.id}/events",
                               f"/games/{game.id}/history/record.json",
                               *[link for mail in mails for link in re.findall(r"https?://[^\s\"'<>]+", _body(mail))]])
        assert any(path.startswith("/p/") for path in seen) and len(seen) > 10
        everything = [*seen.values(), *(_whole(mail) for mail in mails)]
        for written in _appearances(game.secret):
            assert not [where for where, body in zip([*seen, "emails"], everything) if written in body]
        # Nor is anything sent a function of it: the Message-IDs no longer hash it in.
        key = _old_thread_key(game, game.secret)
        assert not any(key in mail["Message-ID"] or key in (mail["References"] or "") for mail in mails)
        # What the creator sees instead: the commitment, on the pages, in the JSON and the first emails.
        assert COMMITMENT_ON_PAGE.search(seen[f"/games/{game.id}"]).group(1) == game.commitment
        assert json.loads(seen[f"/api/games/{game.id}"])["commitment"] == f"sha256:{game.commitment}"
        assert "secret" not in json.loads(seen[f"/api/games/{game.id}"])
        assert all(game.commitment in _body(mail) for mail in mails)


def test_the_secret_is_on_no_page_json_or_email_of_an_active_game_and_shown_once_it_is_over(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent(*[email for _, email in PLAYERS])
    game_id = _start(client, options="target=30")
    for _ in range(9):  # draws too: the hands change
        play_one(game_id, pick=lambda moves: moves[-1])
    game = _game(game_id)
    assert game.status == "active" and game.seq > 9
    mails = _mails(sink, game_id)
    assert len(mails) > 4
    first = [mail for mail in mails if not mail["In-Reply-To"]]  # each player's thread root
    assert len(first) == 2 and all(game.commitment in _body(mail) for mail in first)
    assert not any(game.commitment in _body(mail) for mail in mails if mail["In-Reply-To"])  # stated once
    links = [link for mail in mails for link in re.findall(r"https?://[^\s\"'<>]+", _body(mail))]
    seen = _crawl(client, [f"/games/{game_id}", f"/api/games/{game_id}", f"/api/games/{game_id}/events",
                           *[f"/api/games/{game_id}?at={n}" for n in range(1, game.seq + 1)],
                           f"/games/{game_id}/history/record.json", *links])
    tokens = {urlsplit(link).path.split("/")[2] for link in links if urlsplit(link).path.startswith("/p/")}
    for token in tokens:  # each seat's own JSON: the play API and its record
        for path in (f"/api/play/{token}", f"/p/{token}/history/record.json"):
            seen[path] = text(client.get(path))
    assert len([path for path in seen if "/history" in path]) > game.seq  # every step of the history
    everything = {**seen, **{f"email {mail['Message-ID']}": _whole(mail) for mail in mails}}
    for written in _appearances(game.secret):
        leaked = [where for where, body in everything.items() if written in body]
        assert not leaked, leaked
    assert not [path for path, body in seen.items() if path.endswith(".json") and '"secret"' in body]
    assert game.secret not in repr(game) and game.secret not in str(game)  # what a log or traceback prints
    checked = app.test_cli_runner().invoke(args=["verify", "--game", str(game_id)])  # the operator's check
    assert checked.exit_code == 0 and "the deal checks out" in checked.output and game.secret not in checked.output

    play_to_end(game_id)
    game = _game(game_id)
    assert game.status == "finished"
    token = next(iter(tokens))
    for path in (f"/games/{game_id}/history", f"/p/{token}/history", f"/games/{game_id}", f"/p/{token}"):
        page = text(client.get(path))
        assert SECRET_ON_PAGE.search(page).group(1) == game.secret, path
        assert COMMITMENT_ON_PAGE.search(page).group(1) == game.commitment, path
        assert f"flask --app service verify --game {game_id}" in page
    for path in (f"/api/games/{game_id}", f"/games/{game_id}/history/record.json", f"/p/{token}/history/record.json"):
        data = client.get(path).get_json()
        assert data["secret"] == game.secret and data["commitment"] == f"sha256:{game.commitment}", path


def _finished_riftforce(client) -> int:
    """A Riftforce duel started from the form and played to its end with random choices: its moves
    draw (each shuffle after the draft is a move's randomness), and its end is recorded."""
    preconsent(*[email for _, email in PLAYERS])
    game_id = _start(client, game="riftforce")
    choose = random.Random(4)
    for _ in range(5000):
        game, _ = current(game_id)
        if game.status != "active":
            break
        play_one(game_id, lambda moves: choose.choice(moves))
    ending.record_end(game_id, utcnow())  # what the worker does after the last move (once)
    return game_id


def test_the_finished_games_revealed_secret_replays_to_the_same_log(app, client, tmp_path):
    game_id = _finished_riftforce(client)
    with read_session(get_engine()) as session:
        kinds = [row.kind for row in store.stored_events(session, game_id)]
    assert "system" in kinds and kinds.count("move") > 100
    published = COMMITMENT_ON_PAGE.search(text(client.get(f"/games/{game_id}"))).group(1)

    # What a player has: the finished history page's secret, and the record they download.
    page = text(client.get(f"/games/{game_id}/history"))
    secret = SECRET_ON_PAGE.search(page).group(1)
    assert hashlib.sha256(secret.encode()).hexdigest() == published
    record = client.get(f"/games/{game_id}/history/record.json")
    data = record.get_json()
    assert data["complete"] and data["secret"] == secret
    rows = [deal.Row(e["seq"], e["kind"], e["actor"], e["event"]) for e in data["events"]]
    replayed = deal.replay_problems(engine.get("riftforce"), secret, len(data["players"]), data["options"], rows)
    assert replayed.problems == [] and replayed.setup == 2 and replayed.moves > 50
    # Another secret gives another game: the check can fail.
    other = deal.replay_problems(engine.get("riftforce"), str(int(secret) + 1), 2, data["options"], rows)
    assert other.problems == ["the setup (events 1 to 2) is not what the secret deals"]

    runner = app.test_cli_runner()
    result = runner.invoke(args=["verify", "--game", str(game_id)])
    assert result.exit_code == 0, result.output
    assert f"secret {secret}" in result.output and f"sha256:{published}" in result.output
    assert f"the random draws of all {replayed.moves} moves" in result.output
    assert result.output.rstrip().endswith("the deal checks out")
    path = tmp_path / "record.json"
    path.write_bytes(record.get_data())
    result = runner.invoke(args=["verify", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "the deal checks out" in result.output and f"sha256:{published}" in result.output

    # A record whose log was changed: a draw that the secret did not give.
    changed = json.loads(record.get_data())
    shuffle = next(e for e in changed["events"] if e["kind"] == "move" and _reorder(e["event"]))
    path.write_text(json.dumps(changed))
    result = runner.invoke(args=["verify", "--record", str(path)])
    assert result.exit_code == 1 and "does NOT check out" in result.output
    reported = int(re.search(r"event (\d+) \(a move of seat \d\) is not what any legal move gives", result.output).group(1))
    assert shuffle["seq"] - 10 < reported <= shuffle["seq"]  # the move that holds the changed draw


def _reorder(event: dict) -> bool:
    """Reverse the first list of two or more ids under an "order" key in the event, if it has one."""

    def walk(value) -> bool:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key == "order" and isinstance(inner, list) and len(inner) > 1 and inner != inner[::-1]:
                    value[key] = inner[::-1]
                    return True
                if walk(inner):
                    return True
        elif isinstance(value, list):
            return any(walk(inner) for inner in value)
        return False

    return walk(event)


def test_verify_fails_on_a_changed_commitment_secret_or_setup(app, client):
    game_id = _start(client, options="target=6")
    play_to_end(game_id, pick=lambda moves: moves[-1])
    game = _game(game_id)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify", "--game", str(game_id)]).exit_code == 0

    def change(**values) -> None:
        with write_session(get_engine()) as session:
            session.execute(sa.update(Game).where(Game.id == game_id).values(**values))

    # The commitment published at the start is not the revealed secret's SHA-256.
    change(commitment=hashlib.sha256(b"another secret").hexdigest())
    result = runner.invoke(args=["verify", "--game", str(game_id)])
    assert result.exit_code == 1 and "not its commitment" in result.output
    everything = runner.invoke(args=["verify"])  # the check of every game sees it too
    assert everything.exit_code == 1 and f"game {game_id}: its secret's SHA-256 is not its commitment" in everything.output

    # A secret chosen afterwards, with a commitment to match: it does not deal this game.
    chosen = deal.draw()
    change(secret=chosen, commitment=deal.commit(chosen))
    result = runner.invoke(args=["verify", "--game", str(game_id)])
    assert result.exit_code == 1
    assert "the setup (events 1 to 3) is not what the secret deals" in result.output
    change(secret=game.secret, commitment=game.commitment)
    assert runner.invoke(args=["verify", "--game", str(game_id)]).exit_code == 0


def test_verify_names_a_missing_game_and_a_bad_record_in_words(app, tmp_path):
    runner = app.test_cli_runner()
    both = runner.invoke(args=["verify", "--game", "1", "--record", str(tmp_path / "x.json")])
    assert both.exit_code == 2 and "not both" in both.output
    result = runner.invoke(args=["verify", "--game", "999"])
    assert result.exit_code == 1 and "there is no game 999" in result.output
    path = tmp_path / "record.json"
    for content, words in (("{", "Expecting"), ('{"format": "x"}', "not a Riftpost game record"),
                           ('{"format": "riftpost-game-record/2", "complete": false}', "not complete")):
        path.write_text(content)
        result = runner.invoke(args=["verify", "--record", str(path)])
        assert result.exit_code == 1 and words in result.output, result.output


def test_an_operators_seed_deals_a_known_game_and_says_so(app, client):
    """`new-game --seed` keeps reproducible deals for tests and reproductions: the secret is the seed,
    so no commitment is shown while the game runs (of a known value, it would prove nothing, and
    would let anyone test guesses); after the end the seed is shown and replays."""
    runner = app.test_cli_runner()
    made = runner.invoke(args=["new-game", toygame.NAME, "ann@example.org", "bob@example.org", "--seed", "7"])
    assert made.exit_code == 0, made.output
    game_id = int(made.output)
    assert _setup(game_id) == engine.get(toygame.NAME).start(2, {}, seed=7)
    assert client.get(f"/api/games/{game_id}").get_json()["commitment"] is None
    page = text(client.get(f"/games/{game_id}"))
    assert "dealt from a seed" in page and not COMMITMENT_ON_PAGE.search(page)
    play_to_end(game_id)
    assert SECRET_ON_PAGE.search(text(client.get(f"/games/{game_id}/history"))).group(1) == "7"
    result = runner.invoke(args=["verify", "--game", str(game_id)])
    assert result.exit_code == 0 and "dealt from a seed" in result.output
    too_big = runner.invoke(args=["new-game", toygame.NAME, "a@example.org", "b@example.org", "--seed", str(2**63)])
    assert too_big.exit_code != 0 and "a seed is a whole number" in too_big.output
