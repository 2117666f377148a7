"""Table talk: the messages players write to each other in a game (the whole table, or a team's own
channel), stored apart from the game's event log with the game's seq at the time, so the engine stays
pure.  Below play (which folds new messages into each player's next email) and above people (mute,
"tell me at once")."""
