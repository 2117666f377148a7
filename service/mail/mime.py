"""Conformant MIME for every email: what relays pass unchanged and spam filters do not count against us.

- Every line of a message is at most 78 characters (RFC 5322's "SHOULD"; 998 is only the hard limit):
  a part is 7bit only when it is ASCII in such lines, else quoted-printable in RFC 2045's lines of at
  most 76.  Nothing is 8-bit, so no relay has to downgrade a body and no server needs 8BITMIME.
- The headers that carry people's names (To, From, Subject) are encoded and folded here rather than
  by the standard library's folder, which (CPython 3.11) writes encoded-words of 76 characters and,
  folding a long non-ASCII name, may put a space into it: here every encoded-word is at most RFC 2047's
  75 characters, a name with specials ("Ana (Nana)", "Smith, John") is one quoted-string (never read
  as a comment or as two addresses), and each name reads back exactly as it was given.
"""

from __future__ import annotations

import email.generator
import email.policy
import functools
import random
import re
import sys
import threading
from collections import OrderedDict
from email import quoprimime
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage, Message
from io import BytesIO
from typing import Any

LINE = 78  # RFC 5322 2.1.1: lines SHOULD be at most 78 characters
QP_LINE = 76  # RFC 2045 6.7: encoded lines at most 76 characters
WORD = 75  # RFC 2047 2: an encoded-word is at most 75 characters
_PREFIX, _SUFFIX = "=?utf-8?q?", "?="
# RFC 2047 5(3): the only characters an encoded-word in a phrase may carry unencoded.
_Q_SAFE = re.compile(r"[A-Za-z0-9!*+\-/]")
# RFC 5322 atext: a word of a display name made only of these needs no quoting.
_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+")


class Folded(str):
    """A header value already encoded to ASCII and folded into lines of at most LINE characters
    ("\\n " between them): POLICY stores and writes it as it is."""


class _Headers(HeaderRegistry):
    """The standard library's header factory, each header's class made once: its `__getitem__` makes a
    new class (`type(...)`) for every header it parses, some twenty per email (setting them, then
    reading them again as smtplib sends), a tenth of a delivery's time.  The classes hold no state of
    their own: the headers are the same."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}
        self._parsed = OrderedDict()
        self._lock = threading.Lock()

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made

    def map_to_type(self, name: str, cls: type[Any]) -> None:
        super().map_to_type(name, cls)
        self._made.pop(name.lower(), None)
        self._parsed.clear()

    # The headers parsed, by (name, value) exactly as given: most are the same in every email (a part's
    # Content-Type and Content-Transfer-Encoding, MIME-Version, Auto-Submitted, the sender...), and
    # smtplib reads To and From again as it sends; parsing them (a parse tree each) was a fifth of
    # building and writing out a message.  A header object is immutable (a str with its parse tree), so
    # one may stand in every message that sets the same value; it is made from the key alone, so no
    # email gets a value another one set.  The most recently used MAX_PARSED are kept: the headers every
    # email sets stay (each is used again at once), the values of one email (its Date, Message-ID, To)
    # make way.  (With 512 the worker grew ~4 MB more than main's over 600 emails, bench/delivery.py PSS:
    # parse trees, the likeliest part of it.)
    MAX_PARSED = 64
    _parsed: OrderedDict[tuple[str, str], BaseHeader]

    def __call__(self, name: str, value: Any) -> BaseHeader:
        # Exactly str: a subclass (a Folded value...) may mean more than its text.
        if type(value) is not str or type(name) is not str:
            return super().__call__(name, value)
        key = (name, value)
        with self._lock:  # (a worker of threads)
            found = self._parsed.get(key)
            if found is not None:
                self._parsed.move_to_end(key)
                return found
        found = super().__call__(name, value)
        with self._lock:
            self._parsed[key] = found
            if len(self._parsed) > self.MAX_PARSED:
                self._parsed.popitem(last=False)
        return found


_HEADERS = _Headers()


# Header values new in every message (no other message sets them, for _Headers to keep) whose parsed
# and folded form is known without parsing them: a message id, a thread's ids and the List-Id's plain
# words, on the header's one line when they fit in it; and the Content-Type with the boundary Writer
# draws as it writes the message (Message.set_boundary sets it), always folded before its boundary (a
# multipart/mixed one is not: it fits on one line without the boundary's ".0" suffix).
# Parsing each when it is set and folding it when it is written took some 0.35 ms a message (the
# Content-Type 0.14, the Message-ID 0.08).  They are stored folded, as a Folded value is, and parsed
# only if read again.  tests/service/test_mime_same_bytes.py compares them with the standard
# library's parse and fold.
_IDS = re.compile(r"<[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+>(?: <[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+>)*")
_ONE_LINE = {"message-id": _IDS, "in-reply-to": _IDS, "references": _IDS,
             "list-id": re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)* <[A-Za-z0-9.-]+>")}
_BOUNDARY = re.compile(r'(multipart/(?:alternative|related)); (boundary="={15}[0-9]{19}==(?:\.[0-9]{1,3})?")')


def _folded_already(name: str, value: str) -> str | None:
    """`value` of the header `name` as the standard library folds it, when that is known beforehand."""
    key = name.lower()
    if key == "content-type":
        found = _BOUNDARY.fullmatch(value)
        return f"{found[1]};\n {found[2]}" if found else None
    pattern = _ONE_LINE.get(key)
    if pattern is not None and len(name) + 2 + len(value) <= LINE and pattern.fullmatch(value):
        return value
    return None


class _Policy(email.policy.EmailPolicy):
    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if isinstance(value, Folded):
            return (name, str(value))
        if type(value) is str and self.max_line_length == LINE:
            folded = _folded_already(name, value)
            if folded is not None:
                return (name, folded)
        return super().header_store_parse(name, value)

    def fold_binary(self, name: str, value: Any) -> bytes:
        """A parsed header's folded form, made once per header object and policy (the objects are
        shared: `_Headers`): folding walks its parse tree again, for every message, to the same lines.
        What the fold reads of the policy is all of its settings, the key."""
        if not hasattr(value, "name"):  # a Folded value, written as it is
            return super().fold_binary(name, value)
        try:
            key = (type(self), frozenset(self.__dict__.items()))
        except TypeError:  # a setting that cannot be a key: no keeping
            return super().fold_binary(name, value)
        kept: dict[Any, bytes] = value.__dict__.setdefault("_riftpost_folded", {})
        folded = kept.get(key)
        if folded is None:
            folded = kept[key] = super().fold_binary(name, value)
        return folded


# The message's policy: lines of 78 (the standard library folds the plain ASCII headers, such as the
# Content-Type's boundary, at whitespace), Folded values kept as they are: refold_source "none", or a
# Folded line over 78 (a List-Unsubscribe URL) would be refolded into encoded-words.
POLICY = _Policy(refold_source="none", header_factory=_HEADERS)
_SEVEN_BIT = email.policy.default.clone(header_factory=_HEADERS)
_QUOTED_PRINTABLE = _SEVEN_BIT.clone(max_line_length=QP_LINE)


class Writer(email.generator.BytesGenerator):
    """The standard library's BytesGenerator (what smtplib writes a message with), writing the same
    bytes for less: a part's lines in one write rather than two calls each (a board's HTML part has
    hundreds), a part's text with no "From " in it written without the regex pass that mangles the
    lines starting so, and a multipart's new boundary checked against the parts' text with a
    substring test before the line-anchored regex, which was compiled anew for every message (its
    boundary is random).  service/mail/smtp.py sends what it writes."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        newline: str = self._NL  # type: ignore[attr-defined]  # (set by flatten)
        if "\r" not in lines:  # (a payload's own lines end in "\n": the same as the split below, at once)
            self.write(lines.replace("\n", newline))
            return
        split = email.generator.NLCRE.split(lines)  # type: ignore[attr-defined]
        # As the original: each line but the last followed by the line separator, the last as it is.
        self.write(newline.join(split[:-1]) + newline + split[-1] if len(split) > 1 else split[-1])

    def _handle_text(self, msg: Message) -> None:
        payload = msg._payload  # type: ignore[attr-defined]
        if isinstance(payload, str) and "From " not in payload and not email.generator._has_surrogates(payload):  # type: ignore[attr-defined]
            # What the original does with such a payload (nothing to write back from bytes, no line
            # starting "From " to mangle, which smtplib's generator does), without a regex pass over it.
            self._write_lines(payload)
            return
        super()._handle_text(msg)  # type: ignore[misc]

    @classmethod
    def _make_boundary(cls, text: Any = None) -> str:
        token = random.randrange(sys.maxsize)  # (the same draw as the original's)
        boundary = ("=" * 15) + (email.generator._fmt % token) + "=="  # type: ignore[attr-defined]
        if text is None:
            return boundary
        b = boundary
        counter = 0
        while True:
            needle = "--" + b
            # No "--boundary" anywhere in the text: none at a line's start either (the original's test).
            if (needle.encode("ascii") if isinstance(text, bytes) else needle) not in text:
                break
            if not cls._compile_re("^--" + re.escape(b) + "(--)?$", re.MULTILINE).search(text):  # type: ignore[attr-defined]
                break
            b = boundary + "." + str(counter)
            counter += 1
        return b


def wire(message: Message, policy: Any = None, linesep: str = "\r\n") -> bytes:
    """`message` as smtplib's send_message writes it (BytesGenerator.flatten), by `Writer`."""
    with BytesIO() as out:
        Writer(out, policy=policy).flatten(message, linesep=linesep)
        return out.getvalue()


def body_part(content: str, subtype: str) -> EmailMessage:
    """One text part: 7bit when it is ASCII in lines of at most 78 characters, else quoted-printable
    in lines of at most 76 (spam filters count longer ones against an email: MIME_QP_LONG_LINE)."""
    plain = content.isascii() and all(len(line) <= LINE for line in content.splitlines())
    cte = "7bit" if plain else "quoted-printable"
    part = EmailMessage(policy=_SEVEN_BIT if plain else _QUOTED_PRINTABLE)
    # The headers set_content sets (they do not depend on the text), then the payload it would have set:
    # the text's lines (bytes.splitlines' line ends) each ended by "\n", or for quoted-printable encoded
    # by `quoted_printable` (the same text, for less).
    part._headers = list(_part_headers(subtype, cte))  # type: ignore[attr-defined]
    if plain:
        part.set_payload((b"\n".join(content.encode("ascii").splitlines()) + b"\n").decode("ascii"))
    else:
        part.set_payload(quoted_printable(content, QP_LINE))
    return part


@functools.cache
def _part_headers(subtype: str, cte: str) -> tuple[tuple[str, Any], ...]:
    """A text part's headers, as set_content(text, subtype=subtype, cte=cte) sets them, less the
    MIME-Version the message's own header says: made once (set_content parses and rebuilds the
    Content-Type for its charset each time, a third of making a part); the header objects are
    immutable and already shared between messages (`_Headers`)."""
    model = EmailMessage(policy=_SEVEN_BIT if cte == "7bit" else _QUOTED_PRINTABLE)
    model.set_content("", subtype=subtype, cte=cte)
    del model["MIME-Version"]
    return tuple(model._headers)  # type: ignore[attr-defined]


# The bytes a quoted-printable body leaves as they are (the standard library's _QUOPRI_BODY_ENCODE_MAP):
# tab, the line ends and printable ASCII ("=" is written "=3D" first); any other byte as its escape.
_QP_KEPT = bytes([9, 10, 13, *range(0x20, 0x7F)])
_QP_ESCAPED = [quoprimime._QUOPRI_BODY_ENCODE_MAP[byte].encode("ascii")  # type: ignore[attr-defined]
               for byte in range(256)]


def quoted_printable(text: str, max_line_length: int) -> str:
    """The payload set_content(text, cte="quoted-printable") sets (email.contentmanager's _encode_text:
    UTF-8, the line ends made "\\n", email.quoprimime.body_encode), written faster: body_encode's
    first step, str.translate through a table of 256 strings, was three quarters of its time (some
    0.2 ms for an HTML part).  Here the bytes are escaped by `bytes.replace`, "=" first, then each
    distinct other byte to quote (a "✓", a dash, the preheader's fillers: a few kinds of byte, however
    many of them); a text of many (Ukrainian, Chinese) takes the standard library's way.  The lines
    are then cut exactly as body_encode cuts them."""
    body = b"\n".join(text.encode("utf-8").splitlines()) + b"\n"
    quoted = body.replace(b"=", b"=3D")
    others = quoted.translate(None, _QP_KEPT)  # the bytes to escape
    if len(others) > len(body) // 32:
        return quoprimime.body_encode(body.decode("latin-1"), max_line_length)
    for byte in set(others):
        quoted = quoted.replace(bytes((byte,)), _QP_ESCAPED[byte])
    return _qp_lines(quoted.decode("ascii"), max_line_length)


def _qp_lines(body: str, maxlinelen: int, eol: str = "\n") -> str:
    """email.quoprimime.body_encode (CPython 3.11) after its translate, line for line."""
    if not body:
        return body
    soft_break = "=" + eol
    maxlinelen1 = maxlinelen - 1
    encoded_body: list[str] = []
    append = encoded_body.append
    for line in body.splitlines():
        start = 0
        laststart = len(line) - 1 - maxlinelen
        while start <= laststart:
            stop = start + maxlinelen1
            if line[stop - 2] == "=":
                append(line[start:stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                append(line[start:stop])
                start = stop - 1
            else:
                append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":
            room = start - laststart
            if room >= 3:
                q = quoprimime.quote(line[-1])
            elif room == 2:
                q = line[-1] + soft_break
            else:
                q = soft_break + quoprimime.quote(line[-1])
            append(line[start:-1] + q)
        else:
            append(line[start:])
    if body[-1] in "\r\n":
        append("")
    return eol.join(encoded_body)


class _Lines:
    """Words laid into header lines of at most LINE characters, a fold before a word that does not fit."""

    def __init__(self, name: str):
        self.name = name
        self.lines = [f"{name}:"]

    def room(self) -> int:
        """How long a word may be to fit after a space on the current line."""
        return LINE - len(self.lines[-1]) - 1

    def _has_words(self) -> bool:
        return self.lines[-1] not in ("", f"{self.name}:")

    def add(self, word: str) -> None:
        if len(word) > self.room() and self._has_words():
            self.lines.append("")
        self.lines[-1] += " " + word

    def add_encoded(self, text: str) -> None:
        """`text` as encoded-words, each filling what is left of its line (at most WORD characters);
        the folding whitespace between two encoded-words is no part of the text (RFC 2047 6.2)."""
        chunk = ""
        for char in text:
            encoded = "_" if char == " " else char if _Q_SAFE.fullmatch(char) else "".join(
                f"={byte:02X}" for byte in char.encode("utf-8"))
            limit = min(WORD, self.room())
            if len(_PREFIX) + len(chunk) + len(encoded) + len(_SUFFIX) > limit:
                if chunk:
                    self.add(_PREFIX + chunk + _SUFFIX)
                    chunk = ""
                if len(_PREFIX) + len(encoded) + len(_SUFFIX) > min(WORD, self.room()) and self._has_words():
                    self.lines.append("")
            chunk += encoded
        if chunk:
            self.add(_PREFIX + chunk + _SUFFIX)

    def value(self) -> Folded:
        """The value after "Name: ", continuation lines starting with their folding space."""
        first, *rest = self.lines
        return Folded("\n".join([first.partition(":")[2][1:], *rest]))


def _fits(words: list[str], name: str) -> bool:
    return all(len(word) <= LINE - len(name) - 2 for word in words)


def url_header(url: str) -> Folded:
    """A List-* header's one URL in angle brackets (RFC 2369), on one line however long: a URL has no
    place to fold, and RFC 5322 allows a line of up to 998 characters (78 is its "SHOULD").  Left to
    the standard library, a URL longer than a line becomes encoded-words, which no mail program reads
    as a link."""
    return Folded(f"<{url}>")


def unstructured(name: str, text: str) -> Folded:
    """An unstructured header (Subject): plain ASCII words as they are, folded between words; text
    with anything else as encoded-words."""
    lines = _Lines(name)
    words = text.split(" ")
    if text.isascii() and text.isprintable() and all(words) and _fits(words, name) and "=?" not in text:
        for word in words:
            lines.add(word)
    else:
        lines.add_encoded(text)
    return lines.value()


def address(name: str, display_name: str, addr_spec: str) -> Folded:
    """An address header (To, From) of one mailbox: the display name as atoms when it is made of
    them, as one quoted-string when it is ASCII with specials ("Ana (Nana)", "Smith, John"), else as
    encoded-words; then <addr_spec> (plain ASCII: the envelope's form of the address)."""
    lines = _Lines(name)
    words = display_name.split(" ")
    quoted = '"' + display_name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    printable = display_name.isascii() and display_name.isprintable() and "=?" not in display_name
    if not display_name:
        pass
    elif printable and all(_ATOM.fullmatch(word) for word in words) and _fits(words, name):
        for word in words:
            lines.add(word)
    elif printable and _fits([quoted], name):
        lines.add(quoted)
    else:
        lines.add_encoded(display_name)
    lines.add(f"<{addr_spec}>")
    return lines.value()
