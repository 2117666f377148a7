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
          "\x7f", "\x01", "From ", "\nFrom me"]


def test_the_quoted_printable_payload_is_set_contents():
    rng = random.Random(26)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 200)))
        for length in (76, 20, 4):
            expected = EmailMessage(policy=mime._QUOTED_PRINTABLE.clone(max_line_length=length))
            expected.set_content(text, subtype="html", cte="quoted-printable")
            assert mime.quoted_printable(text, length) == expected.get_payload(), (text, length)


def test_a_part_is_the_one_set_content_makes():
    rng = random.Random(28)
    pieces = [*PIECES, "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "y" * 78, "z" * 79]
    for n in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60 if n % 2 else 300)))
        for subtype in ("plain", "html"):
            part = mime.body_part(text, subtype)
            plain = text.isascii() and all(len(line) <= mime.LINE for line in text.splitlines())
            expected = EmailMessage(policy=mime._SEVEN_BIT if plain else mime._QUOTED_PRINTABLE)
            expected.set_content(text, subtype=subtype, cte="7bit" if plain else "quoted-printable")
            del expected["MIME-Version"]
            assert (part.items(), part.get_payload(), part.policy) == \
                (expected.items(), expected.get_payload(), expected.policy), (text, subtype)
            assert part.as_bytes() == expected.as_bytes()


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


def test_the_values_stored_folded_are_folded_as_the_standard_library_folds_them():
    """Message ids, the List-Id's words and a multipart's boundary are stored folded (mime._Policy): the
    same lines as the standard library's parse and fold, and the same value read back."""
    import email.policy
    import string
    import sys

    reference = email.policy.default.clone(refold_source="none")
    rng = random.Random(30)

    def word(chars: str, longest: int) -> str:
        return "".join(rng.choice(chars) for _ in range(rng.randrange(1, longest)))

    def ident() -> str:
        return f"<{word(string.ascii_letters + string.digits + '._+-', 50)}@{word(string.ascii_letters + '.-', 30)}>"

    stored_folded = 0
    for _ in range(3000):
        cases = [("Message-ID", ident()), ("In-Reply-To", ident()), ("References", " ".join(ident() for _ in range(rng.randrange(1, 4)))),
                 ("List-Id", f"{' '.join(word(string.ascii_letters + string.digits, 12) for _ in range(rng.randrange(1, 5)))} <{word('abc.-1', 40)}>"),
                 ("Content-Type", f'multipart/{rng.choice(["alternative", "mixed", "related"])}; boundary="'
                                  f'{"=" * 15}{rng.randrange(sys.maxsize):019d}=={rng.choice(["", ".0", ".12"])}"')]
        for name, value in cases:
            for policy in (mime.POLICY, mime.POLICY.clone(utf8=True)):
                stored = policy.header_store_parse(name, value)[1]
                stored_folded += not hasattr(stored, "name")
                expected = reference.header_store_parse(name, value)[1]
                assert policy.fold_binary(name, stored).replace(b"\n", b"\r\n") == \
                    reference.clone(linesep="\r\n").fold_binary(name, expected), (name, value)
                assert policy.header_fetch_parse(name, stored) == expected
    assert stored_folded > 3000 * 2 * 3
    # As Writer sets it: the message's own Content-Type with the boundary drawn.
    for _ in range(200):
        message = EmailMessage(policy=mime.POLICY)
        message.make_alternative()
        message.attach(mime.body_part("a", "plain"))
        expected = EmailMessage(policy=reference)
        expected.make_alternative()
        expected.attach(mime.body_part("a", "plain"))
        state = random.getstate()
        written = mime.wire(message)
        random.setstate(state)
        with io.BytesIO() as out:
            BytesGenerator(out).flatten(expected, linesep="\r\n")
            assert written == out.getvalue()
        assert message.get_boundary() == expected.get_boundary()


# What service/mail/smtp.py and mime.py follow, as the Python they were written against has it
# (CPython 3.11.7).  Another Python may change them: then compare the copies again, and record anew.
FOLLOWED = {
    "smtplib.SMTP.send_message": "54415f8d62d496fe6b8d1c7d30224585401338b944869c44040a9c5f7d56be74",
    "email.generator.Generator": "e5fc7d8fafeccd566c34ead3262570fb786f374f1c173a44b3070e161a029769",
    "email.generator.BytesGenerator": "29cd5a20327ef4825e7c08486059c5048902e358d20f4d724ac1af6059c0a66b",
}


def test_the_standard_library_code_our_copies_follow_has_not_changed():
    import email.generator
    import hashlib
    import inspect
    import smtplib

    found = {name: hashlib.sha256(inspect.getsource(obj).encode()).hexdigest() for name, obj in (
        ("smtplib.SMTP.send_message", smtplib.SMTP.send_message),
        ("email.generator.Generator", email.generator.Generator),
        ("email.generator.BytesGenerator", email.generator.BytesGenerator))}
    assert found == FOLLOWED, "the standard library changed: compare service/mail/smtp.py and mime.py with it"
