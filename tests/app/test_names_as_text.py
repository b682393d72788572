"""Names are names: never a link on the page, never a column of the ledger's table."""
from __future__ import annotations

import re

import pytest

from app.ledger import HandEntry, Ledger
from app.ui.literal import literal

# the autolink literals of GFM (mdast-util-gfm-autolink-literal), which react-markdown finds
# in the text after escapes are read
URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE)
EMAIL = re.compile(r"(?:^|(?<=[\s\W]))([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)")
LINKS = ["https://evil.example/x", "www.evil.example", "HTTP://EVIL.EXAMPLE", "bo@evil.example",
         "Dr. Bo"]


def read_as_text(markdown: str) -> str:
    """What Markdown shows of `markdown`: each backslash escape read as its character."""
    return re.sub(r"\\(.)", r"\1", markdown)


@pytest.mark.parametrize("name", LINKS)
def test_a_name_like_an_address_is_no_link(name):
    shown = read_as_text(literal(name))
    assert not URL.search(shown) and not EMAIL.search(shown), repr(shown)
    assert shown.replace("\u2060", "") == name


NAMES = ["#", "Time", "Hand", "Won"]


def test_names_like_the_table_s_columns_keep_every_column(data_dir):
    from streamlit.testing.v1 import AppTest

    from app_fixtures import PAGE
    ledger = Ledger(data_dir)
    night = ledger.current_night()
    ledger.set_names(night, NAMES)
    ledger.add_hand(night, HandEntry("mcr", "[123m][EEE1]456p789sNN", 9, "E",
                                     {"E": 27, "S": -17, "W": -5, "N": -5}), "t1")
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = [d for d in at.dataframe if d.key == "ledger_table"] or at.dataframe[:1]
    frame = table.value
    assert len(frame.columns) == 5 + len(NAMES)
    assert list(frame.iloc[0])[0] == 1  # the hand's number is still there
    assert sorted(frame.iloc[0].tolist()[-4:]) == [-17, -5, -5, 27]


@pytest.mark.browser
def test_no_name_is_a_link_in_the_browser(tmp_path, new_page):
    import browser_fixtures as bf
    data = tmp_path / "data"
    ledger = Ledger(data)
    night = ledger.current_night()
    ledger.set_names(night, LINKS[:4])
    ledger.add_hand(night, HandEntry("mcr", "[123m][EEE1]456p789sNN", 9, "E",
                                     {"E": 27, "S": -17, "W": -5, "N": -5}), "t1")
    ledger.new_night(LINKS[:4])  # the first night under Past nights
    ledger.reopen(night)
    with bf.serve(tmp_path / "app", {}, data=data) as url:
        page = bf.open_page(new_page, url, viewport={"width": 1400, "height": 3000})
        page.get_by_role("button", name="Settle up").click()
        bf.settle(page)
        assert page.get_by_text("evil", exact=False).count() > 0  # the names are shown
        links = page.locator("a[href*='evil'], a[href^='mailto:']")
        assert links.count() == 0, [links.nth(i).get_attribute("href") for i in range(links.count())]
