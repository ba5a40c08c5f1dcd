"""The composition root: URLs, defaults, and refusing a database written by another embedder."""

from __future__ import annotations

import pytest

import kenning
from kenning.config import Settings
from kenning.embedders import HashEmbedder
from kenning.errors import ConfigError


def test_default_database_lives_in_the_user_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with kenning.open(embedder=HashEmbedder()) as k:
        k.scope("t", "u").remember("hello world")
    assert (tmp_path / "kenning" / "kenning.db").exists()


def test_a_bare_path_is_refused_and_settings_db_works(tmp_path):
    # A bare word used to become a SQLite file of that name (``--db notaurl``); now it is refused.
    with pytest.raises(ConfigError, match="not a URL"):
        kenning.open(str(tmp_path / "a.db"), embedder=HashEmbedder())
    assert not (tmp_path / "a.db").exists()
    with kenning.open(f"sqlite:///{tmp_path / 'a.db'}", embedder=HashEmbedder()) as k:
        k.scope("t", "u").remember("a URL")
    with kenning.open(settings=Settings.model_construct(db=f"sqlite:///{tmp_path / 'a.db'}"), embedder=HashEmbedder()) as k:
        assert k.scope("t", "u").list()[0].text == "a URL"


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite:///:memory:", ""])
def test_unsupported_urls_are_config_errors(url):
    with pytest.raises(ConfigError):
        kenning.open(url or ":memory:", embedder=HashEmbedder())


def test_reopening_with_another_embedder_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'k.db'}"
    kenning.open(url, embedder=HashEmbedder(256)).close()
    with pytest.raises(ConfigError, match="hash-256"):
        kenning.open(url, embedder=HashEmbedder(128))


def test_settings_choose_the_embedder(tmp_path):
    with kenning.open(f"sqlite:///{tmp_path / 'k.db'}", settings=Settings.model_construct(embedder="hash")) as k:
        assert k.ctx.embedder.model_id == "hash-256"
    with pytest.raises(ConfigError):
        kenning.open(f"sqlite:///{tmp_path / 'o.db'}", settings=Settings.model_construct(embedder="openai"))
