"""``kenning keys …`` through the real CLI, and ``kenning serve`` as a real process stopped by SIGTERM."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx
from click.testing import CliRunner

from kenning.cli import main


def _run(*args: str, env: dict[str, str]):
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    return result


def test_keys_create_list_revoke(tmp_path):
    env = {"KENNING_EMBEDDER": "hash"}
    db = f"sqlite:///{tmp_path / 'k.db'}"
    r = _run("keys", "create", "--tenant", "acme", "--name", "ci", "--db", db, "--json", env=env)
    assert r.exit_code == 0, r.output
    made = json.loads(r.stdout)
    assert made["key"].startswith("kn_") and made["tenant_id"] == "acme"
    r = _run("keys", "list", "--tenant", "acme", "--db", db, "--json", env=env)
    listed = json.loads(r.stdout)
    assert [k["id"] for k in listed] == [made["id"]] and made["key"] not in r.stdout and listed[0]["revoked_at"] is None
    assert json.loads(_run("keys", "list", "--tenant", "globex", "--db", db, "--json", env=env).stdout) == []
    r = _run("keys", "revoke", "--tenant", "globex", made["id"], "--db", db, env=env)
    assert r.exit_code != 0  # another tenant cannot revoke it
    assert _run("keys", "revoke", "--tenant", "acme", made["id"], "--db", db, env=env).exit_code == 0
    assert json.loads(_run("keys", "list", "--tenant", "acme", "--db", db, "--json", env=env).stdout)[0]["revoked_at"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_answers_then_stops_gracefully_on_sigterm(tmp_path):
    env = {**os.environ, "KENNING_EMBEDDER": "hash", "XDG_DATA_HOME": str(tmp_path / "data")}
    exe = shutil.which("kenning")
    cmd = [exe] if exe else [sys.executable, "-c", "from kenning.cli import main; main()"]
    key = json.loads(subprocess.run([*cmd, "keys", "create", "--tenant", "acme", "--json"], env=env, check=True,
                                    capture_output=True, text=True).stdout)["key"]
    port = _free_port()
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() is not None else "timeout"
            time.sleep(0.1)
        r = httpx.post(f"{base}/v1/users/alice/memories", json={"text": "Alice plays the cello"}, headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 201
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    # uvicorn re-raises the signal once shutdown is complete, so the exit status is the conventional -SIGTERM
    assert proc.returncode in (0, -signal.SIGTERM), err
    assert f"listening on http://localhost:{port}" in err and "kenning keys create --tenant" in err  # the banner
    events = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any(e["msg"] == "request" and e.get("status") == 201 for e in events)
    msgs = [e["msg"] for e in events]
    assert "shutdown complete" in msgs and msgs.index("shutdown complete") > msgs.index("request")  # drained, then closed
    assert (tmp_path / "data" / "kenning" / "kenning.db").exists()  # the embedded default
