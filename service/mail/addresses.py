"""Players' email addresses: checked and normalized on the way in (email-validator), put into the
envelope and the To header in their ASCII form.

What is accepted is what can receive mail from the internet: one @, a domain with a dot, no quoted or
obsolete forms, no special-use domain (localhost, *.local, *.test, *.invalid, *.onion, *.arpa: mail
to them goes nowhere).  The domain is not looked up (check_deliverability=False): starting a game must
not wait on DNS, and a typo in a real domain shows as a bounce.  A non-ASCII part before the @ is
refused (allow_smtputf8=False) because sending to it needs SMTPUTF8 from every server on the way,
which a relay may lack; a non-ASCII domain is fine: it has an ASCII (IDNA) name, used on the wire.

The sender (MAIL_FROM, riftpost@localhost in the embedded mode) is configuration, not input: it is
not checked here, and the local sink takes any sender.
"""

from __future__ import annotations

from service.errors import Invalid

# email_validator is imported where it is used: the worker, which checks no address and sends to ASCII
# ones, need not load it (its memory: worker/__main__.py, bench/memory.py).


def normalized(typed: str) -> str:
    """The address as it is stored (email-validator's normalized form: the domain in lower case and
    Unicode NFC, the part before the @ as typed); raises Invalid saying what is wrong."""
    import email_validator

    try:
        found = email_validator.validate_email(typed, check_deliverability=False, allow_smtputf8=False)
    except email_validator.EmailNotValidError as exc:
        raise Invalid(f"{typed!r} is not an email address. {exc}") from None
    return str(found.normalized)


def ascii_form(stored: str) -> str:
    """A stored address as it goes on the wire: an internationalized domain in its IDNA form.  An
    address stored before addresses were checked is sent as it is (it was accepted then)."""
    if stored.isascii():
        return stored
    import email_validator

    try:
        found = email_validator.validate_email(stored, check_deliverability=False, allow_smtputf8=False,
                                               globally_deliverable=False)
    except email_validator.EmailNotValidError:
        return stored
    return str(found.ascii_email or stored)
