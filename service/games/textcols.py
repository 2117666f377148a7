"""Plain-text boards in fixed-width columns, in any script: the shared measure of the games' text
boards (service/games/<game>_text.py).  A wide or full-width character (CJK) takes two columns, so a
Chinese name lines up with a Latin or Cyrillic one."""

from __future__ import annotations

import unicodedata


def width(text: str) -> int:
    """Columns `text` takes in a fixed-width font."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    """`text` filled with spaces to `columns` columns (as it is when it is wider)."""
    return text + " " * max(0, columns - width(text))


def columns(rows: list[list[str]], indent: str) -> list[str]:
    """Rows of cells, each column padded to its widest cell (the last cell of a row left as it is)."""
    widths = [max(width(r[i]) for r in rows if i < len(r)) for i in range(max(map(len, rows), default=0))]
    return [indent + "  ".join(pad(c, widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)).rstrip()
            for r in rows]
