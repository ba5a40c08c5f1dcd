"""The PostgreSQL test plugin: unavailable means skipped locally, failed under CI; its tests carry the marker."""

from __future__ import annotations

import pytest

from kenning.stores.postgres import testing


def test_an_unavailable_server_skips_locally(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no server"):
        testing._unavailable("no server")


def test_an_unavailable_server_fails_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="required in CI"):
        testing._unavailable("no server")


class _Item:
    """The two attributes of a pytest item the hook uses."""

    def __init__(self, fixturenames: list[str]) -> None:
        self.fixturenames = fixturenames
        self.marks: list[str] = []

    def add_marker(self, mark) -> None:
        self.marks.append(mark.name)


def test_tests_using_the_fixtures_are_marked_postgres():
    items = [_Item(["pg_url", "tmp_path"]), _Item(["pg_server"]), _Item(["tmp_path"])]
    testing.pytest_collection_modifyitems(items)
    assert [i.marks for i in items] == [["postgres"], ["postgres"], []]
