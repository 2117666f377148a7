"""How a page looks in the browser: it fits the viewport's width, and axe-core finds nothing serious.

Shared by the browser tests of every page that shows a board (player, spectator, history, emails
opened as pages).  Both need a Playwright `page` already at the page under test."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = [PHONE, DESKTOP]

_AXE = Axe()


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def assert_fits(page) -> None:
    """Nothing sticks out sideways: the document is no wider than the viewport."""
    # A click that submits a form returns once the next page's DOM is there, maybe before its
    # stylesheets: measured then, an unbroken word in a message is as wide as unstyled text.
    page.wait_for_load_state("load")
    viewport = page.viewport_size["width"]
    width = page_width(page)
    if width > viewport:
        wide = page.evaluate(
            """w => [...document.querySelectorAll('body *')]
                 .filter(e => e.getBoundingClientRect().right > w + 0.5)
                 .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + Math.round(e.getBoundingClientRect().right))""",
            viewport,
        )
        raise AssertionError(f"page is {width} px wide in a {viewport} px viewport; widest: {wide}")


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings (WCAG A/AA and best practice), one line each."""
    results = _AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def assert_accessible(page) -> None:
    found = serious_violations(page)
    assert not found, "\n".join(found)
