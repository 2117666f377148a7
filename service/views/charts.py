"""The score chart: an inline SVG drawn here (no external service, no JavaScript), so it works in
any browser, prints, and is described in words for screen readers (<title>, <desc>).  Its legend is
an HTML list after it (each seat's line sample, name and latest score), so the names read at full
size on a phone, where the drawing itself is scaled down (styles: static/site.css)."""

from __future__ import annotations

from markupsafe import Markup, escape

from service.lang import ENGLISH, translations

# Colour and dash per seat: the lines differ in more than colour (readable in greyscale and by
# colour-blind readers).
STYLES = [("#0a4a94", ""), ("#a10000", "6 3"), ("#2e7d32", "2 3"), ("#6a1b9a", "8 3 2 3")]
# A phone-sized drawing (scaled to the page's width, at most 1.3 times this: site.css); its text is
# sized so that it stays legible at 375 px.
WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 24
FONT = 12


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def score_chart(
    series: list[tuple[int, list[float]]] | None,
    labels: dict[int, str],
    *,
    marker: int | None = None,
    target: float | None = None,
    chart_id: str = "score-chart",
    language: str = ENGLISH,
) -> Markup | None:
    """The scores by seat over the game's events as SVG markup followed by its legend (an HTML
    list), or None without a series.  The series has a point at the start and one at the end of
    every turn (history.score_series), so its axis is told in turns, as players count a game, while
    the points stand at their events (a long turn takes more room)."""
    said = translations(language)
    if not series:
        return None
    seats = max(len(scores) for _, scores in series)
    turns = len(series) - 1
    first, last = series[0][0], series[-1][0]
    span = max(1, last - first)
    top_value = max([1.0, *(max(scores) for _, scores in series)] + ([float(target)] if target else []))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(seq: int) -> float:
        return LEFT + (seq - first) * plot_w / span

    def y(value: float) -> float:
        return TOP + plot_h - value * plot_h / top_value

    name = lambda seat: labels.get(seat, f"Seat {seat + 1}")  # noqa: E731
    final = ", ".join(f"{name(s)} {_fmt(v)}" for s, v in enumerate(series[-1][1]))
    words = {"title": said.gettext("Scores over the game"),
             "desc": said.gettext("Scores by player after each turn, from the start to turn %(num)d.") % {"num": turns},
             "latest": said.gettext("Latest: %(scores)s.") % {"scores": final},
             "here": said.gettext("here"), "legend": said.gettext("Latest scores")}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="100%" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d">',
        f'<title id="{chart_id}-t">{escape(words["title"])}</title>',
        f'<desc id="{chart_id}-d">{escape(words["desc"])} {escape(words["latest"])}</desc>',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="#777"/>',
    ]
    steps = 4
    for i in range(steps + 1):  # horizontal grid with score labels
        value = top_value * i / steps
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" font-size="{FONT}" text-anchor="end" '
                     f'fill="#1b1b1b">{_fmt(round(value, 1))}</text>')
    if target:
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
                     f'stroke="#c75000" stroke-dasharray="4 4"/>')
        parts.append(f'<text x="{LEFT + plot_w - 4}" y="{y(target) - 4:.1f}" font-size="{FONT}" '
                     f'text-anchor="end" fill="#7a3100">target {_fmt(target)}</text>')
    for text_x, label in ((LEFT, said.gettext("start")), (LEFT + plot_w, said.gettext("turn %(num)d") % {"num": turns})):
        anchor = "start" if text_x == LEFT else "end"
        parts.append(f'<text x="{text_x}" y="{TOP + plot_h + 16}" font-size="{FONT}" text-anchor="{anchor}" '
                     f'fill="#1b1b1b">{label}</text>')
    legend: list[str] = []
    for seat in range(seats):
        colour, dash = STYLES[seat % len(STYLES)]
        points, previous = [], None
        for seq, scores in series:
            if seat >= len(scores):
                continue
            if previous is not None:  # scores change at an event: draw steps, not slopes
                points.append(f"{x(seq):.1f},{y(previous):.1f}")
            points.append(f"{x(seq):.1f},{y(scores[seat]):.1f}")
            previous = scores[seat]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dash_attr} '
                     f'points="{" ".join(points)}"><title>{escape(name(seat))}</title></polyline>')
        legend.append(
            f'<li><svg aria-hidden="true" width="28" height="10" viewBox="0 0 28 10"><line x1="1" x2="27" '
            f'y1="5" y2="5" stroke="{colour}" stroke-width="2.5"{dash_attr}/></svg> '
            f'{escape(name(seat))}: {_fmt(series[-1][1][seat]) if seat < len(series[-1][1]) else "–"}</li>')
    if marker is not None and first <= marker <= last:
        parts.append(f'<line x1="{x(marker):.1f}" x2="{x(marker):.1f}" y1="{TOP}" y2="{TOP + plot_h}" '
                     f'stroke="#1b1b1b" stroke-width="1.5" stroke-dasharray="3 2"/>')
        parts.append(f'<text x="{x(marker):.1f}" y="{TOP + FONT}" font-size="{FONT}" text-anchor="middle" '
                     f'fill="#1b1b1b" paint-order="stroke" stroke="#fff" stroke-width="3">{escape(words["here"])}</text>')
    parts.append("</svg>")
    parts.append(f'<ul class="chart-legend" aria-label="{escape(words["legend"])}">{"".join(legend)}</ul>')
    return Markup("".join(parts))
