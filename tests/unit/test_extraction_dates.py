"""Relative time words anchored to the day the turn was said (``lifecycle/extraction/dates.py``), and the write
path storing the anchored claim while reconciliation reads the words as said."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from kenning.lifecycle.extraction.dates import SAID, anchor, said
from kenning.types import Status

THURSDAY = datetime(2026, 3, 12, 10, tzinfo=timezone.utc)  # Thursday 12 March 2026


@pytest.mark.parametrize(
    "text, want",
    [
        ("User ran a 10k last saturday.", "User ran a 10k on Saturday 7 March 2026."),
        ("User saw her last thursday.", "User saw her on Thursday 5 March 2026."),  # the same weekday: a week back
        ("User is seeing Tom this thursday.", "User is seeing Tom on Thursday 12 March 2026."),
        ("User's parkrun is next sunday.", "User's parkrun is on Sunday 15 March 2026."),
        ("Next sunday is the user's 50th parkrun.", "Sunday 15 March 2026 is the user's 50th parkrun."),
        ("User did the bike ride yesterday.", "User did the bike ride on 11 March 2026."),
        ("User rests tomorrow.", "User rests on 13 March 2026."),
        ("User moved to Leeds last month.", "User moved to Leeds in February 2026."),
        ("User has been vegan since last year.", "User has been vegan since 2025."),
        ("User quit 6 months ago.", "User quit in September 2025."),
        ("User started a week ago.", "User started in the week of 2 March 2026."),
        ("User went to Rome last summer.", "User went to Rome in summer 2025."),
        ("User moved it to next friday.", "User moved it to Friday 13 March 2026."),
        ("User is free this weekend.", "User is free on the weekend of Saturday 14 March 2026."),
        ("User is getting married on October 16th next year.", "User is getting married on October 16th 2027."),  # a day said before it
        ("Let's make tomorrow unforgettable.", "Let's make 13 March 2026 unforgettable."),  # the object of a verb
        ("User's scales said 84.5 this morning!!!", "User's scales said 84.5 on 12 March 2026!!!"),  # "84.5" is no day of a month
    ],
)
def test_a_relative_time_is_the_date_it_means_on_the_day_it_was_said(text, want):
    assert anchor(text, THURSDAY) == want


@pytest.mark.parametrize(
    "text",
    [
        "User gets paid on the last Friday of the month.",  # a rule, not a day
        "The last week has been mad.",  # a span
        "User goes climbing on friday.",  # a bare weekday: last or next by tense
        "User has been a nurse for 10 years.",
    ],
)
def test_what_names_no_single_day_is_left_as_said(text):
    assert anchor(text, THURSDAY) == text


def test_seasons_count_from_the_month_said():
    assert anchor("User skied last winter.", datetime(2026, 1, 15)) == "User skied in winter 2024."  # winter 2025 is not over
    assert anchor("User skied last winter.", datetime(2026, 3, 15)) == "User skied in winter 2025."
    assert anchor("User went to Rome last summer.", datetime(2026, 10, 1)) == "User went to Rome in summer 2026."


def test_the_write_path_stores_the_date_and_keeps_the_words_as_said(real_system):
    mem = real_system.scope("t1", "u1")
    mem.add([{"role": "user", "content": "omg last saturday I ran my first ever 10k!!!"}], session_id="s1", now=THURSDAY, wait=True)
    got = [m for m in mem.list() if "10k" in m.text]
    assert got and "Saturday 7 March 2026" in got[0].text and "last saturday" not in got[0].text.lower(), [m.text for m in mem.list()]
    assert "last saturday" in said(got[0]).lower() and got[0].metadata[SAID] != got[0].text


def test_a_new_dose_said_with_yesterday_still_rewrites_the_old_dose(real_system):
    """Reconciliation reads the candidate as said: the anchored date's digits are no second reading of the dose."""
    mem = real_system.scope("t1", "u1")
    mem.add([{"role": "user", "content": "i'm on 50mg sertraline since november for anxiety"}], session_id="s1",
            now=datetime(2026, 2, 1, tzinfo=timezone.utc), wait=True)
    mem.add([{"role": "user", "content": "gp bumped me up to 100 yesterday"}], session_id="s2", now=datetime(2026, 2, 24, tzinfo=timezone.utc), wait=True)
    active = [m.text for m in mem.list()]
    assert any("100" in t and "sertraline" in t for t in active), active
    assert not any("50mg" in t for t in active), active
    retired = [m.text for m in mem.list(statuses=[Status.RETIRED])]
    assert any("50mg" in t for t in retired), retired


def test_dates_never_reach_another_tenant(real_system):
    a, b = real_system.scope("t1", "u1"), real_system.scope("t2", "u1")
    a.add([{"role": "user", "content": "I did the London to Brighton bike ride yesterday"}], session_id="s1", now=THURSDAY, wait=True)
    assert any("11 March 2026" in m.text for m in a.list())
    assert b.list() == []
