"""``kenning eval``: scenario files, or LoCoMo evidence recall.

    kenning eval PATH [--json] [--plot FILE]
    kenning eval locomo PATH_TO/locomo10.json [--through turns|add] [--limit N] [--json] [--k 20] [--plot FILE]

One click command takes the arguments and dispatches on the first: the word
``locomo`` followed by a path selects the benchmark; anything else is a
scenario file or folder. (A folder that is literally called ``locomo`` still
works: ``kenning eval ./locomo``.) ``--through turns`` (the default) stores
one memory per turn and measures retrieval alone; ``--through add`` sends
every turn through ``add()`` and reports recall, observation coverage and
ingest statistics beside the raw-turn figures (``evals/locomo_add.py``).

Exit status: 0 when every scenario ran, whatever passed; 2 (click's usage
error) with the file, step and problem when a scenario file is invalid.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kenning.errors import KenningError


def _embedder() -> Any:
    from kenning.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


@click.command("eval", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("args", nargs=-1, required=True, metavar="PATH | locomo PATH")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Save a PNG chart (needs matplotlib).")
@click.option("--k", "k", type=int, default=None, help="LoCoMo only: how many memories each question retrieves (default 20).")
@click.option("--limit", type=int, default=None, help="LoCoMo only: use the first N conversations.")
@click.option(
    "--through",
    type=click.Choice(["turns", "add"]),
    default=None,
    help="LoCoMo only: store raw turns (default) or send every turn through add() (beside the raw figures).",
)
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE",
              help="Scenarios only: a Settings field every scenario's store gets (e.g. chatter_cutoff=0.5); repeatable.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def eval_cmd(
    args: tuple[str, ...], as_json: bool, plot_path: str | None, k: int | None, limit: int | None, through: str | None,
    settings: tuple[str, ...], quiet: bool,
) -> None:
    """Run scenario files (a file, or every *.yaml below a folder), or `locomo PATH` for LoCoMo evidence recall."""
    from kenning.progress import bar

    if args[0] == "locomo" and len(args) == 2:
        if limit is not None and limit < 1:
            raise click.UsageError("--limit must be at least 1")
        with bar("LoCoMo: turns and questions", enabled=not quiet) as progress:
            progress(0, 0, "loading the embedding model")
            _locomo(args[1], as_json, plot_path, k or 20, limit, through or "turns", progress)
        return
    if len(args) != 1:
        raise click.UsageError("expected one scenario PATH, or: locomo PATH_TO/locomo10.json")
    if k is not None or limit is not None or through is not None:
        raise click.UsageError("--k, --limit and --through apply to `kenning eval locomo` only")
    given = _settings(settings)
    with bar("scenarios", enabled=not quiet) as progress:
        _scenarios(args[0], as_json, plot_path, progress, given)


def _settings(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs checked against the Settings fields, each value validated as that field's type."""
    from pydantic import TypeAdapter, ValidationError

    from kenning.config import Settings

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        field = Settings.model_fields.get(name.strip())
        if not sep or field is None:
            raise click.UsageError(f"--setting {pair!r}: expected NAME=VALUE with NAME a Settings field")
        try:
            out[name.strip()] = TypeAdapter(field.annotation).validate_python(value.strip())
        except ValidationError as exc:
            raise click.UsageError(f"--setting {pair!r}: {exc.errors()[0]['msg']}") from exc
    return out


def _scenarios(path: str, as_json: bool, plot_path: str | None, progress: Any, settings: dict[str, Any] | None = None) -> None:
    from kenning.evals.metrics import format_report
    from kenning.evals.runner import Runner
    from kenning.evals.scenario import load_path

    try:
        scenarios = load_path(path)
    except KenningError as exc:
        raise click.UsageError(f"invalid scenario: {exc}") from exc
    report = Runner(_embedder(), progress=progress, settings=settings).run(scenarios)
    click.echo(json.dumps(report, indent=2) if as_json else format_report(report))
    if plot_path:
        _plot(lambda: _plot_tags(report, plot_path))


def _locomo(path: str, as_json: bool, plot_path: str | None, k: int, limit: int | None, through: str, progress: Any) -> None:
    from kenning.evals import locomo, locomo_add

    module: Any = locomo_add if through == "add" else locomo
    try:
        report = module.run(path, embedder=_embedder(), k=k, limit=limit, progress=progress)
    except KenningError as exc:
        raise click.UsageError(str(exc)) from exc
    click.echo(json.dumps(report, indent=2) if as_json else module.format_table(report))
    if plot_path:
        _plot(lambda: locomo.plot(report["recall"] if through == "add" else report, plot_path))


def _plot(draw: Any) -> None:
    try:
        draw()
    except KenningError as exc:
        raise click.ClickException(str(exc)) from exc


def _plot_tags(report: dict[str, Any], path: str) -> None:
    """Pass rate by tag as a horizontal bar chart."""
    from kenning.evals.locomo import _pyplot

    plt = _pyplot()
    tags = list(report["by_tag"])
    rates = [t["passed"] / t["total"] if t["total"] else 0.0 for t in report["by_tag"].values()]
    fig, ax = plt.subplots(figsize=(6, max(2.0, 0.3 * len(tags) + 1)))
    ax.barh(tags, rates)
    ax.set_xlim(0, 1)
    ax.set_xlabel("checks passed")
    ax.set_title("Scenario pass rate by tag")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(eval_cmd())
