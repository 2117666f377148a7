"""Received mail: one door that reads each incoming message and decides what it is: a bounce of an
email of ours, a reply that plays a move or talks at the table, or something refused.  Above play,
since a reply plays through the same move path as the page and the JSON API."""
