"""The faster ways service/mail/mime.py writes a message give the standard library's bytes exactly: the
quoted-printable payload of set_content (`quoted_printable`), BytesGenerator's output (`wire`), and a
header parsed once and shared by every message that sets it (`_Headers`)."""

from __future__ import annotations

import io
import random
from email.generator import BytesGenerator
from email.message import EmailMessage

from service.mail import mime

# Pieces that meet every branch: "=" next to a cut, whitespace at a line's end, non-ASCII (a few, or
# many: the standard library's own way), control characters, bare CR, long lines.
PIECES = ["a", "b", " ", "\t", "=", "\n", "\r\n", "\r", "✓", "—", "é", "Ж", "中", "x" * 70, "   ", "=3D", ".",
          "\x7f", "\x01"]


def test_the_quoted_printable_payload_is_set_contents():
    rng = random.Random(26)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 200)))
        for length in (76, 20, 4):
            expected = EmailMessage(policy=mime._QUOTED_PRINTABLE.clone(max_line_length=length))
            expected.set_content(text, subtype="html", cte="quoted-printable")
            assert mime.quoted_printable(text, length) == expected.get_payload(), (text, length)


def test_a_message_is_written_as_bytes_generator_writes_it():
    rng = random.Random(27)
    for n in range(200):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 400)))
        message = EmailMessage(policy=mime.POLICY)
        message["Subject"] = mime.unstructured("Subject", f"Game {n}: {text[:20]}")
        message["To"] = mime.address("To", "Ana", "ana@example.org")
        message["X-Riftpost-Kind"] = "turn"
        message.make_alternative()
        message.attach(mime.body_part(text, "plain"))
        message.attach(mime.body_part(f"<p>{text}</p>", "html"))
        state = random.getstate()
        with io.BytesIO() as out:
            BytesGenerator(out).flatten(message, linesep="\r\n")
            expected = out.getvalue()
        random.setstate(state)  # the same boundary drawn
        assert mime.wire(message) == expected
        # and again, every header now parsed and folded before
        random.setstate(state)
        assert mime.wire(message) == expected
