"""Progress bars for long commands (rich), on stderr so stdout stays the command's answer.

Library code reports progress through a plain callback, ``progress(done, total, label)``;
only the CLI turns that into a bar, so nothing below the front ends imports rich.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int, int, str], None]


@contextmanager
def bar(description: str, *, enabled: bool = True, force: bool = False) -> Iterator[Progress]:
    """A callback drawing one bar with counts, elapsed time and time left.

    A no-op when not ``enabled``, or when stderr is not a terminal (logs and
    pipes get no redraw noise) unless ``force``.
    """
    import sys

    if not enabled or not (force or sys.stderr.isatty()):
        yield lambda done, total, label="": None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress as RichProgress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), TextColumn("{task.fields[label]}"),
    )
    with RichProgress(*columns, console=Console(stderr=True), transient=False) as rp:
        task = rp.add_task(description, total=None, label="")

        def update(done: int, total: int, label: str = "") -> None:
            rp.update(task, completed=done, total=total, label=label)

        yield update


__all__ = ["Progress", "bar"]
