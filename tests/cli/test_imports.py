"""`mlbench --help`, `tasks`, `report`, `agree` and `judge --help` never import torch."""

import subprocess
import sys


def test_cli_and_report_do_not_import_torch(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("id,a,b\n1,yes,no\n2,no,no\n")
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from mlbench.cli.main import app\n"
        "r = CliRunner()\n"
        "assert r.invoke(app, ['--help']).exit_code == 0\n"
        "assert r.invoke(app, ['tasks']).exit_code == 0\n"
        f"assert r.invoke(app, ['report', {str(tmp_path)!r}]).exit_code == 2\n"
        "from pathlib import Path\n"
        "from tests.report.synthetic_runs import planted_values, write_run\n"
        f"runs = Path({str(tmp_path / 'runs')!r})\n"
        "write_run(runs, 'm', 'truthfulqa_multi', planted_values(0, gap_lang='eu'))\n"
        "done = r.invoke(app, ['report', str(runs), '--format', 'md,csv,latex,html,json', '--plots'])\n"
        "assert done.exit_code == 0, done.output\n"
        f"assert r.invoke(app, ['agree', {str(labels)!r}, '--a', 'a', '--b', 'b']).exit_code == 0\n"
        "assert r.invoke(app, ['judge', '--help']).exit_code == 0\n"
        "import mlbench.report, mlbench.engine.pipeline, mlbench.metrics, mlbench.stats.intervals\n"
        "import mlbench.engine.judging\n"
        "heavy = [m for m in ('torch', 'transformers', 'vllm') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
