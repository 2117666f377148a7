"""Time control: settings (settings.py), seat clocks, reminders and pauses (seats.py), people and their
vacations (people.py).  Never calls back into the move path: timeouts are service/play's."""
