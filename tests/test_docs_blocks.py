"""Every code block of the README and docs/ runs as written, or is checked the way its marker says.

A block is checked by the mode in the ``<!-- check: MODE … -->`` comment on the
line before it; a Python block without one is run. No block goes unchecked:
``test_every_block_has_a_known_check`` fails on any other block.

- ``run`` (Python, the default): run as a script in an empty directory.
- ``server``: run against a real Kenning server started in this process
  (uvicorn on a free port; ``localhost:8420`` in the block points at it). The
  blocks of one page run in order in one shell environment, as a reader would
  type them, so ``$KEY`` from one block is there in the next.
- ``serve``: ``pip install -e '.[x]'`` names an extra that exists; each
  ``kenning serve`` line parses, and the first on SQLite (or the default) is
  started for real, answers ``/healthz`` and stops on SIGTERM. PostgreSQL lines
  are parsed only (serving on PostgreSQL is tested in tests/integration).
- ``long``: commands that take many minutes or need data outside the
  repository. Each line must parse: ``kenning …`` through click, ``python
  script.py --flag`` by running ``--help`` and finding every flag, ``pip
  install -e '.[x]'`` by the extra existing. The marker says what runs them.
- ``ci``: the command ``.ci/run`` runs.
- ``diagram``: every module or package it names exists.
- ``mcp-config``: valid JSON whose ``kenning`` arguments parse.
- ``output NAME``: a sample of output, compared with what the code produces.
- ``entry-points``: the TOML names the registry's entry point groups.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import click
import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MODES = {"run", "server", "serve", "long", "ci", "diagram", "mcp-config", "output", "entry-points"}
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
MARK = re.compile(r"<!-- check: (\S+)(?: (.*?))? -->\s*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    body: str
    mode: str | None
    note: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks() -> list[Block]:
    out = []
    for page in PAGES:
        text = page.read_text()
        for m in FENCE.finditer(text):
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            mark = MARK.match(before)
            mode = mark.group(1) if mark else ("run" if m.group(1) == "python" else None)
            out.append(Block(page, text[: m.start()].count("\n") + 1, m.group(1), m.group(2), mode, (mark.group(2) or "") if mark else ""))
    return out


ALL = blocks()


def of(mode: str) -> list[Block]:
    return [b for b in ALL if b.mode == mode]


def params(mode: str):
    return pytest.mark.parametrize("block", of(mode), ids=[b.id for b in of(mode)])


def test_every_block_has_a_known_check():
    unchecked = [b.id for b in ALL if b.mode not in MODES]
    assert not unchecked, f"blocks without a known <!-- check: … --> marker: {unchecked}"
    assert len(ALL) >= 20  # the walk found the blocks


# -- the environment a reader would have -------------------------------------------------------


@pytest.fixture
def shell_env(tmp_path) -> dict[str, str]:
    """PATH with ``kenning`` and ``python`` of this checkout; data, home and the database in tmp_path."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, target in (("kenning", f'exec "{sys.executable}" -m kenning.cli "$@"'), ("python", f'exec "{sys.executable}" "$@"')):
        (bin_dir / name).write_text(f"#!/bin/sh\n{target}\n")
        (bin_dir / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(
        PATH=f"{bin_dir}:{env.get('PATH', '')}", PYTHONPATH=str(SRC), HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
        KENNING_EMBEDDER="hash",  # the commands are the point here, not the model; test_readme_python uses the real one
    )
    work = tmp_path / "work"
    work.mkdir()
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- run ----------------------------------------------------------------------------------------


@params("run")
def test_python_blocks_run_as_written(block, tmp_path, shell_env):
    env = {**shell_env}
    if block.page.name == "README.md":
        env.pop("KENNING_EMBEDDER")  # the README's snippet with the bundled model, as a reader gets it
    r = subprocess.run([sys.executable, "-c", block.body], cwd=tmp_path / "work", env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{block.id} failed:\n{r.stdout}\n{r.stderr}"
    if block.page.name == "README.md":
        # the snippet shows both the diet it captured and the allergy it was told, and deletes neither
        assert "vegetarian" in r.stdout and "allergic to peanuts" in r.stdout, r.stdout
    if "langgraph" in block.body:
        assert "I remember: I'm allergic to peanuts." in r.stdout


# -- server -------------------------------------------------------------------------------------


@pytest.fixture
def live_server(tmp_path, shell_env):
    """A real Kenning server on a free port, over the database the shell's ``kenning`` commands use."""
    import uvicorn

    from kenning.config import Settings
    from kenning.server.app import create_app

    url = f"sqlite:///{tmp_path / 'server.db'}"
    app = create_app(Settings.model_construct(db=url, embedder="hash"), mcp=False)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield port, {**shell_env, "KENNING_DB": url}
    server.should_exit = True
    thread.join(timeout=30)


SERVER_PAGES = sorted({b.page for b in of("server")})


@pytest.mark.parametrize("page", SERVER_PAGES, ids=[str(p.relative_to(ROOT)) for p in SERVER_PAGES])
def test_server_blocks_run_in_order_against_a_real_server(page, live_server, tmp_path):
    port, env = live_server
    state = tmp_path / "work" / "shell-state.sh"
    for block in [b for b in of("server") if b.page == page]:
        body = block.body.replace("localhost:8420", f"127.0.0.1:{port}")
        if block.lang == "python":
            body = f"python - <<'KENNING_PY'\n{body}\nKENNING_PY"
        script = f"set -euo pipefail\nset -a\n[ -f {state} ] && source {state}\n{body}\nexport -p > {state}\n"
        r = subprocess.run(["bash", "-c", script], cwd=tmp_path / "work", env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{block.id} failed:\n{r.stdout}\n{r.stderr}"
        assert '"error"' not in r.stdout, f"{block.id} got an error answer:\n{r.stdout}"
        if "Where does Alice live?" in body:
            assert "York" in r.stdout
        if "page-token" in body:
            assert f"http://127.0.0.1:{port}/page?token=kp_" in r.stdout


# -- serve --------------------------------------------------------------------------------------


def _extras() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def _commands(body: str) -> list[list[str]]:
    """The commands of a shell block: comments dropped, ``&&`` chains split, ``$(…)`` unwrapped."""
    out = []
    for line in body.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        sub = re.search(r"\$\((.*)\)", line)
        if sub and line.startswith("export "):
            line = sub.group(1)
        for part in line.split("&&"):
            out.append(shlex.split(part))
    return out


def _check_pip(argv: list[str]) -> None:
    assert argv[:3] == ["pip", "install", "-e"], f"install from the clone: {argv}"
    extras = re.fullmatch(r"\.\[([\w,]+)\]", argv[3]).group(1).split(",")
    assert set(extras) <= _extras(), f"unknown extra in {argv}"


def _kenning_command(argv: list[str]) -> tuple[click.Command, list[str], click.Context]:
    from kenning.cli import main

    cmd: click.Command = main
    args = argv[1:]
    # Contexts made as the real CLI makes them (with its -h): click caches a command's help option on
    # first use, so a bare make_context here would leave the command without -h for later tests.
    ctx = main.make_context("kenning", [], resilient_parsing=True)
    while isinstance(cmd, click.Group) and args and not args[0].startswith("-"):
        sub = cmd.get_command(ctx, args[0])
        assert sub is not None, f"no command {args[0]!r} in {argv}"
        ctx = sub.make_context(args[0], [], parent=ctx, resilient_parsing=True)
        cmd, args = sub, args[1:]
    return cmd, args, ctx.parent


def _check_kenning(argv: list[str]) -> None:
    from kenning import registry

    cmd, args, parent = _kenning_command(argv)
    cmd.make_context(cmd.name, list(args), parent=parent, resilient_parsing=True)  # options exist and take the values given
    for i, a in enumerate(args[:-1]):
        if a == "--db":
            url = args[i + 1]
            registry.store_factory(url.split("://", 1)[0])
            if url.startswith("sqlite"):
                registry.sqlite_path(url)


@params("serve")
def test_serve_blocks_install_extras_that_exist_and_serve(block, tmp_path, shell_env):
    started = False
    for argv in _commands(block.body):
        if argv[0] == "pip":
            _check_pip(argv)
            continue
        assert argv[:2] == ["kenning", "serve"], argv
        _check_kenning(argv)
        if started or any(a.startswith("postgres") for a in argv):
            continue
        port = _free_port()
        args = list(argv[1:])
        if "--port" in args:
            args[args.index("--port") + 1] = str(port)
        else:
            args += ["--port", str(port)]
        proc = subprocess.Popen(["kenning", *args], cwd=tmp_path / "work", env=shell_env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
                assert proc.poll() is None, proc.communicate()[1]
            else:
                pytest.fail(f"{block.id}: kenning serve did not answer /healthz")
            assert "Kenning" in httpx.get(f"http://127.0.0.1:{port}/", timeout=5).text
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=60)
        # a graceful stop: uvicorn re-raises SIGTERM once shutdown is complete
        assert proc.returncode in (0, -15) and "shutdown complete" in err, err
        started = True
    assert started or all(a[0] == "pip" or any(x.startswith("postgres") for x in a) for a in _commands(block.body))


# -- long ---------------------------------------------------------------------------------------


@params("long")
def test_long_blocks_say_why_and_every_command_parses(block, shell_env):
    assert block.note.startswith("(") and len(block.note) > 20, f"{block.id}: say why it is not run, and what checks it"
    for argv in _commands(block.body):
        if argv[0] == "pip":
            _check_pip(argv)
        elif argv[0] == "kenning":
            _check_kenning(argv)
        elif argv[0] == "python":
            script = ROOT / argv[1]
            assert script.exists(), f"{block.id}: no {argv[1]}"
            r = subprocess.run([sys.executable, str(script), "--help"], env=shell_env, capture_output=True, text=True, timeout=120, cwd=ROOT)
            assert r.returncode == 0, r.stderr
            for flag in (a for a in argv[2:] if a.startswith("--")):
                assert flag in r.stdout, f"{block.id}: {argv[1]} has no {flag}"
        else:
            pytest.fail(f"{block.id}: no check for {argv[0]!r}")


# -- the rest -----------------------------------------------------------------------------------


@params("ci")
def test_ci_blocks_are_what_ci_runs(block):
    assert block.body.strip() in (ROOT / ".ci" / "run").read_text()


@params("diagram")
def test_diagrams_name_modules_that_exist(block):
    names = re.findall(r"[\w.]+\.py|\w+/", block.body)
    assert names
    for name in names:
        assert list((SRC / "kenning").rglob(name.rstrip("/"))), f"{block.id} names {name}, which does not exist"


@params("mcp-config")
def test_mcp_configs_are_json_whose_arguments_parse(block):
    config = json.loads(block.body)
    for server in config["mcpServers"].values():
        assert server["command"] == "kenning"
        _check_kenning(["kenning", *server["args"]])


@params("output")
def test_output_samples_match_what_the_code_prints(block, system):
    from datetime import datetime, timezone

    assert block.note == "mcp-search", f"{block.id}: no comparison for output {block.note!r}"
    alice = system.scope("acme", "alice")
    alice.remember("Alice is allergic to peanuts", kind="fact", now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    real = alice.render_for_prompt("peanuts")
    assert re.sub(r'id="mem_[^"]+"', 'id="mem_…"', real) == block.body.strip()


@params("entry-points")
def test_entry_point_samples_name_the_registry_groups(block):
    from kenning import registry

    groups = tomllib.loads(block.body)["project"]["entry-points"]
    assert set(groups) == {registry.STORE_GROUP, registry.EMBEDDER_GROUP}
    for targets in groups.values():
        assert all(re.fullmatch(r"[\w.]+:\w+", t) for t in targets.values())
