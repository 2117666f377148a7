"""What people read, made from the store (read only): positions (what a seat sees at a position),
sentences (every line in words), history (timelines, records, score series), charts (SVG),
follow-up offers, times in a person's zone."""
