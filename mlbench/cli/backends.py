"""``mlbench backends [NAME]``: the backends a model runs on and each one's own options,
set with ``-M key=value`` (the judge's with ``-J``), the way ``mlbench tasks NAME`` shows
a benchmark's ``-T`` options."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors

NameArg = Annotated[Optional[str], typer.Argument(help="One backend: its options.")]


@app.command()
@user_errors
def backends(name: NameArg = None) -> None:
    """List the backends; with NAME, its own options (-M KEY=VALUE)."""
    from rich.table import Table

    from mlbench.backends.options import BACKEND_OPTIONS, PASSTHROUGH, option_keys
    from mlbench.cli.settings import choice
    from mlbench.cli.task_info import typed_options_table

    console = wide_console()
    if name is None:
        table = Table(title="mlbench backends (--backend NAME; auto: vllm with a GPU, else hf)", title_justify="left")
        table.add_column("backend", no_wrap=True)
        table.add_column("runs the model on")
        table.add_column("options (-M)")
        for backend, kind in BACKEND_OPTIONS.items():
            table.add_row(backend, (kind.__doc__ or "").strip(), ", ".join(option_keys(kind)))
        console.print(table)
        return
    kind = BACKEND_OPTIONS[choice("backend", name, tuple(BACKEND_OPTIONS))]
    console.print(typed_options_table(kind, f"{name} options (-M KEY=VALUE, -J for a judge, or [model] in --config)"))
    if name == "vllm":
        print(f"{PASSTHROUGH}NAME=VALUE: any other argument of vllm.LLM (VALUE read as JSON when it parses).")
