"""Several processes share one SQLite file: every write lands, and cached partitions see other processes' writes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import kenning
from kenning.embedders import HashEmbedder

WRITER = textwrap.dedent(
    """
    import sys, kenning
    from kenning.embedders import HashEmbedder
    k = kenning.open(sys.argv[1], embedder=HashEmbedder())
    s = k.scope("acme", "alice")
    for i in range(40):
        s.remember(f"process {sys.argv[2]} wrote item {i}")
        s.search("item", k=3)
    k.close()
    """
)


def test_two_processes_write_one_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    kenning.open(url, embedder=HashEmbedder()).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, url, str(n)]) for n in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with kenning.open(url, embedder=HashEmbedder()) as k:
        assert k.scope("acme", "alice").count() == 80


def test_a_cached_partition_sees_writes_from_another_process(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with kenning.open(url, embedder=HashEmbedder()) as k:
        alice = k.scope("acme", "alice")
        alice.remember("Alice likes green tea")
        store, vec = k.ctx.store, k.ctx.embedder.embed(["tea"], "query")[0]
        now = kenning.types.now_utc()
        assert len(store.search_vector(alice.scope, vec, k=10, now=now)) == 1  # partition now cached here
        code = (
            "import sys, kenning\nfrom kenning.embedders import HashEmbedder\n"
            "kenning.open(sys.argv[1], embedder=HashEmbedder()).scope('acme', 'alice').remember('Alice likes black tea')"
        )
        subprocess.run([sys.executable, "-c", code, url], check=True, timeout=120)
        assert len(store.search_vector(alice.scope, vec, k=10, now=now)) == 2
