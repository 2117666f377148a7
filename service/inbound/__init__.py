"""Received mail: one door that reads each incoming message and decides what it is: a bounce of an
email of ours, a reply that plays a move or talks at the table, or something refused.  Above play,
since a reply plays through the same move path as the page and the JSON API.

- door.py      keep every message first (table `inbound_messages`), then route it; the SMTP handler of
               the embedded sink's inbound port; the operator's listing (`flask inbound-log`)
- reading.py   what a reply is: an auto-reply or a loop (RFC 3834 and the usual marks), its new text
               (quoted history, signatures, HTML), DMARC as our own MTA recorded it
- replies.py   a reply read as its seat's: a choice's number, moves (a whole turn), or table talk; the
               answer to the seat's own address
- settings.py  a person's "answer my replies" setting
docs/inbound.md says why each piece is as it is.
"""
