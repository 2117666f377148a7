"""SpamAssassin's FILL_THIS_FORM rules, ported to Python so that tests need no spamassassin binary.

The real SpamAssassin backs it: tests/service/test_email_wire.py scores every type of email with
Debian's spamd (all rules, FILL_THIS_FORM among them) and checks that the real rules fire where this
port does; the port stays as the quick check, on every email with and without its board.

The patterns are those of SpamAssassin 4.0.1's rules (72_active.cf, Apache License 2.0): the
`replace_tag` definitions FF_* expanded into the `__FILL_THIS_FORM_*` body and rawbody rules, and the
metas that combine them.  The published rules (FILL_THIS_FORM, FILL_THIS_FORM_LONG,
T_FILL_THIS_FORM_SHORT, FILL_THIS_FORM_LOAN, T_FILL_THIS_FORM_FRAUD_PHISH) also need the message not
to be threaded (`!__THREADED`) nor from a mailing list (`!__VIA_ML`); `fired` leaves those out on
purpose: our emails must pass without the help of our threading and list headers.

What the rules see is emulated as SpamAssassin makes it (Mail::SpamAssassin::Message and ::HTML):
- body rules: the subject, then every text part (HTML rendered to text: <br> and <div> break lines,
  <p>, <hr>, <pre>, <blockquote> and <title> make paragraphs, <li>, <td>, <th> and <h1>-<h6> a space,
  <style> and <script> say nothing), paragraphs on lines of their own with all other whitespace one
  space;
- rawbody rules: every text part decoded but not rendered, line by line.
Matching is on Unicode text rather than UTF-8 bytes, which only makes the accented letters of a
few foreign words match a little more readily.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from html.parser import HTMLParser

ANDOR = r"(?:\s?[\/&+,]\s?|\sor\s|\sand?\s)"
NUMBER = r"(?:(?:ruf)?num(?:[bm]er)?\(?s?\)?|nos?\.|no\b|n[\xb0]|\#s?|nbrs?\.?)"
TAGS = {
    "FF_LNNO": r"(?:(?:\d{1,3}(?:[)}\]:.,]{1,80}|(?:st|nd|rd|th)[)}\]:.,]{0,3})|\W?\([\div]{1,5}\)|\W?\{\d{1,3}\}"
               r"|\[\d{1,3}\]|\*{1,5}|\#{1,5}|\(?[A-K][)}\]:.,]{1,3})\s?)",
    "FF_YOUR": r"(?:a?\s?copy\sof\s)?(?:(?:your|din|seu|twoje)[\s,:]{1,5})?(?:present\s|c[uo]rrent\s|"
               r"full(?:st[\xe4]ndigt)?\s?|complete\s|direct\s|private?\s|valid\s|personal\s|nuvarande\s|"
               r"vollst[\xe4]ndige\s|aktuelle\s|pe\s(?:ne\s)?){0,3}",
    "FF_SUFFIX": r"(?:\sin\s(?:full|words)|\scompleto)?:?(?:\s?[({][^)}]{1,30}[)}])?",
    "FF_BLANK1": r"(?:[\s:;]{0,4}(?:(?:[-=_.,:;*\s\x85]|&\#\d{1,3};|\u2026){3,100}))",
    "FF_BLANK2": r"(?:[^-=_.,:;*\w]{0,3}(?:[-=_.,:;*\s\x85]|&\#\d{1,3};|\u2026){1,100})",
    "FF_A1": r"(?:(?:countr?y|city|province|ter+itory|(?:zip|post(?:al)?)(?:\s?code)?|st?ates?|ad+res+e?)<ANDOR>?){1,3}"
             r"(?:\sof\s(?:residence|birth|employment|citizenship|origin))?",
    "FF_A2": r"(?:(?:contact|full|house|home|resident[ia]+l|busines+|mailing|work|delivery|ship+ing|post(?:al)?|"
             r"of+ice|e-?mail|bostads|wohn)<ANDOR>?){0,3}\s?(?:ad+res+[es]{0,2}|location|endere[\xe7]o)"
             r"(?:\sline)?(?:\s[0-9])?",
    "FF_N1": r"(?:company|first|last|all|busines+|legal|ben[ei]ficiary|user|vollstaendigen)?\s?"
             r"(?:name?[sn]?|navne|nome|nazwy)(?:<ANDOR>ad+res+)?",
    "FF_P1": r"(?:(?:(?:busines+|contact|fax|voice|house|home|mobile?|cel+(?:ular)?|of+ice|tel+e?(?:\s?(?:ph|f)one?)?|"
             r"(?:ph|f)one|private)(?:\s(?:ph|f)one)?<ANDOR>?){1,3}(?:\s?<NUMBER>)?<ANDOR>?){1,3}",
    "FF_M1": r"(?:(?:ages?|marital\s?statu[se]|sex|gender|male\sor\sfemale|(?:date\s(?:of\s)?)?birth|religion|"
             r"nationality|(?:user )?email|next\sof\skin|alter|staatsangehoerigkeit|nationalitet|idade|weik)"
             r"<ANDOR>?){1,3}",
    "FF_L1": r"(?:(?:previous\s)?work(?:ing)\s?experience|employment|position|profes+ion|(?:monthly|an+ual)?\s?income|"
             r"purpose\sof\sl(?:oa|ao)n|an+ual\sturn\s?over|l(?:oa|ao)n\sduration|oc+up[ae]tion(?:\/position)?s?|"
             r"(?:l(?:oa|ao)n\s|the\s)?amount(?:\sneed(ed)?|\sdesired)?(?:\s(?:as|of)\sloan)?|beruf|zaw(?:=F3|[\xf3])d)",
    "FF_F1": r"(?:(?:bank(?:ing)?|beneficiary|billing|acc(?:oun)?t|rout(?:ing)?|swift|receiver|user)<ANDOR>?){1,3}\s"
             r"(?:(?:name|ad+res+(?:es)?|location|code|details|institution|a\/c|<NUMBER>)<ANDOR>?){1,3}",
    "FF_F2": r"(?:(?:(?:international\s)?driver'?s?\sli[sc]+(?:en[sc]e)?|pas+\s?port|id\scard|[ia]d(?:entification|"
             r"entity)(?:\s(?:card|<NUMBER>|papers?))?)<ANDOR>?){1,3}(?:\s<NUMBER>)?",
    "FF_F3": r"(?:picture|zdj\scie|test\squestion|answer|amount\swon|(?:inheritance\s)?funds?\svalue|"
             r"(?:e-?mail\s)?pas+word|e-?mai?l\sid|amount\s[\w\s]{0,30}lost[\w\s]{0,15})",
    "FF_F4": r"(?:log[-\s]?in|(?:e-?mail\s)?user)\s?names?",
    "FF_F5": r"(?:ref(?:erence)?|batch|win+ing|award|billet)[-\s]?<NUMBER>",
    "FF_ALL": r"(?:<FF_A1>|<FF_A2>|<FF_N1>|<FF_P1>|<FF_M1>|<FF_F1>|<FF_F2>|<FF_F3>|<FF_F4>|<FF_F5>|<FF_L1>)",
    "ANDOR": ANDOR,
    "NUMBER": NUMBER,
}


def _expand(pattern: str) -> str:
    """Replace <TAG>s until none is left (tags name other tags), as the ReplaceTags plugin does."""
    while True:
        expanded = re.sub(r"<([A-Z_0-9]+)>", lambda m: TAGS[m.group(1)], pattern)
        if expanded == pattern:
            return expanded
        pattern = expanded


def _rule(pattern: str, flags: int = re.I) -> re.Pattern[str]:
    return re.compile(_expand(pattern), flags)


BODY = {
    "__FILL_THIS_FORM_LONG1": _rule(r"(?:<FF_LNNO><FF_YOUR><FF_ALL><FF_SUFFIX>(?:<FF_BLANK2>(?:P[a-z\.\s]{10,30})?"
                                    r"|<ANDOR>)){5}"),
    "__FILL_THIS_FORM_LONG2": _rule(r"(?:<FF_YOUR><FF_ALL><FF_SUFFIX>(?:<FF_BLANK2>(?:P[a-z\.\s]{10,30})?|<ANDOR>)){5}"),
    "__FILL_THIS_FORM_SHORT1": _rule(r"(?:<FF_LNNO><FF_YOUR><FF_ALL><FF_SUFFIX>(?:<FF_BLANK2>|<ANDOR>)){3}"),
    "__FILL_THIS_FORM_SHORT2": _rule(r"(?:<FF_YOUR><FF_ALL><FF_SUFFIX>(?:<FF_BLANK2>|<ANDOR>)){3}"),
    "__FILL_THIS_FORM_LOAN1": _rule(r"<FF_YOUR><FF_L1><FF_SUFFIX>(?:<FF_BLANK1>|<FF_BLANK2>$)"),
    "__FILL_THIS_FORM_FRAUD_PHISH1": _rule(r"<FF_YOUR>(?:<FF_F1>|<FF_F2>|<FF_F3>|<FF_F4>|<FF_F5>)<FF_SUFFIX>"
                                           r"(?:<FF_BLANK1>|<FF_BLANK2>$)"),
}
# Counted (tflags multiple maxhits=5): a line that reads like a form's field label.
PARTIAL = _rule(r"^\s?<FF_LNNO>?<FF_YOUR>(?:<FF_ALL><ANDOR>?){1,3}<FF_SUFFIX>(?:<FF_BLANK1>|(?:[-=_.,:;*\s]|=20){1,4}$)",
                re.I | re.M)
PARTIAL_RAW = _rule(r"^(?>\s{0,50})<FF_LNNO>?<FF_YOUR>(?:<FF_ALL><ANDOR>?){1,3}<FF_SUFFIX>"
                    r"(?:<FF_BLANK1>|(?:[-=_.,:;*\s]|=20|&nbsp;|<\/\w+>){0,4}$)", re.I | re.M)
MAX_HITS = 5
MAX_BODY_LINE_LENGTH = 2048


class _Renderer(HTMLParser):
    """HTML to text as SpamAssassin's HTML.pm renders it for body rules."""

    LINE = frozenset({"br", "div"})
    SPACE = frozenset({"li", "th", "td", "dt", "dd", "embed", "h1", "h2", "h3", "h4", "h5", "h6"})
    PARAGRAPH = frozenset({"p", "hr", "blockquote", "pre", "listing", "plaintext", "xmp", "title"})
    SILENT = frozenset({"style", "script"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.silent = 0

    def _space(self, tag: str) -> None:
        if tag in self.LINE:
            self.out.append("\n")
        elif tag in self.SPACE:
            self.out.append(" ")
        elif tag in self.PARAGRAPH:
            self.out.append("\n\n")

    def handle_starttag(self, tag, attrs):
        if tag in self.SILENT:
            self.silent += 1
        self._space(tag)

    def handle_endtag(self, tag):
        if tag in self.SILENT:
            self.silent = max(0, self.silent - 1)
        self._space(tag)

    def handle_data(self, data):
        if not self.silent:
            self.out.append(data)


def _text_parts(message: EmailMessage) -> list[tuple[str, str]]:
    return [(part.get_content_type(), part.get_content()) for part in message.walk()
            if part.get_content_maintype() == "text"]


def _rendered(kind: str, text: str) -> str:
    if kind == "text/html":
        renderer = _Renderer()
        renderer.feed(text)
        renderer.close()
        return "".join(renderer.out)
    return text


def body_lines(message: EmailMessage) -> list[str]:
    """What SpamAssassin's body rules read: the subject, then the paragraphs of every text part."""
    text = "\n".join(_rendered(kind, content) for kind, content in _text_parts(message))
    text = re.sub(r"\n+\s*\n+", "\x00", text)
    text = re.sub(r"\s+", " ", text).replace("\x00", "\n")
    lines: list[str] = []
    for line in (str(message["Subject"] or "") + "\n" + text).splitlines(keepends=True):
        while len(line) > MAX_BODY_LINE_LENGTH:
            cut = line.rfind(" ", 0, MAX_BODY_LINE_LENGTH) + 1 or MAX_BODY_LINE_LENGTH
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def raw_texts(message: EmailMessage) -> list[str]:
    """What rawbody rules read: each text part decoded, HTML tags and all."""
    return [content for _, content in _text_parts(message)]


def hits(message: EmailMessage) -> dict[str, int]:
    """How often each sub-rule matches (the counted ones up to their maxhits)."""
    lines = body_lines(message)
    raws = raw_texts(message)
    found = {name: int(any(rule.search(line) for line in lines)) for name, rule in BODY.items()}
    found["__FILL_THIS_FORM_PARTIAL"] = min(MAX_HITS, sum(len(PARTIAL.findall(line)) for line in lines))
    found["__FILL_THIS_FORM_PARTIAL_RAW"] = min(MAX_HITS, sum(len(PARTIAL_RAW.findall(raw)) for raw in raws))
    return found


def fired(message: EmailMessage) -> dict[str, list[str]]:
    """The FILL_THIS_FORM metas that fire, each with the lines that made its sub-rules match (for the
    failure message); {} when none does."""
    count = hits(message)
    form = bool(count["__FILL_THIS_FORM_LONG1"] or count["__FILL_THIS_FORM_LONG2"]
                or count["__FILL_THIS_FORM_PARTIAL"] > 4 or count["__FILL_THIS_FORM_PARTIAL_RAW"] > 4)
    short = not form and bool(count["__FILL_THIS_FORM_SHORT1"] or count["__FILL_THIS_FORM_SHORT2"]
                              or count["__FILL_THIS_FORM_PARTIAL"] > 2 or count["__FILL_THIS_FORM_PARTIAL_RAW"] > 2)
    metas = {
        "FILL_THIS_FORM": form,
        "FILL_THIS_FORM_LONG": bool(count["__FILL_THIS_FORM_LONG1"] or count["__FILL_THIS_FORM_LONG2"]),
        "T_FILL_THIS_FORM_SHORT": short,
        "FILL_THIS_FORM_LOAN": form and bool(count["__FILL_THIS_FORM_LOAN1"]),
        "T_FILL_THIS_FORM_FRAUD_PHISH": (form or short) and bool(count["__FILL_THIS_FORM_FRAUD_PHISH1"]),
    }
    if not any(metas.values()):
        return {}
    evidence = [m.group(0) for line in body_lines(message) for rule in (*BODY.values(), PARTIAL)
                for m in rule.finditer(line)]
    evidence += [m.group(0) for raw in raw_texts(message) for m in PARTIAL_RAW.finditer(raw)]
    return {name: evidence[:10] for name, on in metas.items() if on}
