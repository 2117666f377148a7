"""People: an email address across all its games.  Who may act for it (links, sign-in, sessions, API
tokens), its settings (time zone, vacations, notifications) and its home (its games, its deliveries).

A capability of its own above the clocks and the mail it uses, below play and the web."""
