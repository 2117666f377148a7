"""The email policies' header factory makes each header's class once (service/mail/mime.py `_Headers`):
the same class for the same header, whatever its spelling, each header its own kind, and a header
mapped to another class afterwards gets that one."""

from __future__ import annotations

from email.headerregistry import AddressHeader, UnstructuredHeader

from service.mail import mime


def test_each_header_class_is_made_once_and_is_that_headers_own():
    headers = mime._Headers()
    assert headers["To"] is headers["to"] is headers["TO"]
    assert issubclass(headers["To"], AddressHeader) and issubclass(headers["Subject"], UnstructuredHeader)
    assert headers["Subject"] is not headers["To"]
    # What the header holds is parsed per value, never kept in the shared class.
    ana, bo = headers("To", "Ana <ana@example.org>"), headers("To", "Bo <bo@example.org>")
    assert [a.addr_spec for a in ana.addresses] == ["ana@example.org"]
    assert [a.addr_spec for a in bo.addresses] == ["bo@example.org"]


def test_a_header_mapped_to_another_class_afterwards_gets_it():
    headers = mime._Headers()
    assert issubclass(headers["X-Riftpost-Kind"], UnstructuredHeader)
    headers.map_to_type("X-Riftpost-Kind", AddressHeader)
    assert issubclass(headers["x-riftpost-kind"], AddressHeader)


def test_every_policy_of_an_email_uses_the_one_factory():
    assert mime.POLICY.header_factory is mime._SEVEN_BIT.header_factory is mime._QUOTED_PRINTABLE.header_factory
    assert isinstance(mime.POLICY.header_factory, mime._Headers)
    # smtplib sends with a clone of the message's policy (linesep \r\n): the same factory.
    assert mime.POLICY.clone(linesep="\r\n").header_factory is mime.POLICY.header_factory
