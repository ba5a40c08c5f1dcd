"""Engines and embedders are found by name, built in or through a plugin's entry point; bad URLs are refused in words."""

from __future__ import annotations

import pytest

import kenning
from kenning import registry
from kenning.config import Settings
from kenning.errors import ConfigError
from kenning.stores.base import KeyStore, LeaseStore, MemoryStore, ResidueStore, Store, supports


def test_the_plugin_store_is_found_through_its_entry_point_and_is_only_a_memory_store():
    assert "dictstore" in registry.store_schemes()
    store = registry.open_store("dictstore://x", dim=8, embedder_id="t")
    assert type(store).__module__ == "kenning_dictstore"
    assert supports(store, MemoryStore)
    assert not any(supports(store, c) for c in (KeyStore, LeaseStore, ResidueStore, Store))


def test_the_facade_runs_on_the_plugin_store_and_says_what_it_lacks():
    settings = Settings.model_construct(embedder="dicthash")  # the plugin's embedder entry point
    with kenning.open("dictstore://facade", settings=settings) as system:
        assert system.ctx.embedder.dim == 64
        alice = system.scope("acme", "alice")
        alice.remember("Alice is allergic to peanuts", kind="fact")
        assert [h.memory.text for h in alice.search("peanut allergy")] == ["Alice is allergic to peanuts"]
        system.maintain()
        with pytest.raises(ConfigError, match="API keys"):
            system.create_api_key("acme")
        with pytest.raises(ConfigError, match="leases"):
            system.maintenance_pass(holder="w1")


@pytest.mark.parametrize("url", ["notaurl", "memories.db", "/tmp/x.db", "mysql://h/db", "sqlite://", "sqlite:///"])
def test_bad_database_urls_are_refused_and_create_nothing(url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError):
        kenning.open(url, embedder=kenning_hash())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("url", ["user=postgres dbname=x", "host=localhost port=5432 dbname=kenning", "dbname=x"])
def test_a_key_value_connection_string_is_refused_in_words_and_creates_nothing(url, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kenning.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="key=value PostgreSQL connection string.*postgresql://"):
        kenning.open(url, embedder=kenning_hash())
    result = CliRunner().invoke(main, ["list", "--db", url, "--tenant", "t", "--user", "u"])
    assert result.exit_code == 2 and "key=value" in result.output
    monkeypatch.setenv("KENNING_DB", url)
    assert CliRunner().invoke(main, ["list", "--tenant", "t", "--user", "u"]).exit_code == 2
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("path", "url"), [("memories.db", "sqlite:///memories.db"), ("/srv/k.sqlite", "sqlite:////srv/k.sqlite")])
def test_a_bare_sqlite_path_is_refused_with_the_url_to_write(path, url):
    with pytest.raises(ConfigError) as err:
        registry.check_url(path)
    assert url in str(err.value)


def test_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        kenning.open(f"sqlite:///{tmp_path}/no/such/dir/k.db", embedder=kenning_hash())
    assert list(tmp_path.iterdir()) == []


def test_unknown_embedder_names_the_known_ones():
    with pytest.raises(ConfigError, match="minilm"):
        registry.build_embedder(Settings.model_construct(embedder="nope"))


def test_sqlite_urls_follow_the_three_and_four_slash_rule():
    assert str(registry.sqlite_path("sqlite:///rel/k.db")) == "rel/k.db"
    assert str(registry.sqlite_path("sqlite:////abs/k.db")) == "/abs/k.db"


def kenning_hash():
    from kenning.embedders import HashEmbedder

    return HashEmbedder()
