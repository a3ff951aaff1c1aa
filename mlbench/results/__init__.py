"""A run's files under ``<out>/<model-slug>/<task>/``, read and written here only:

- ``samples_<lang>.jsonl`` (``samples``): one ``SampleRecord`` a line, appended as samples
  finish; what ``--resume``, the judges and a language's last stage read and rewrite.
- ``results_<lang>.json`` (``language``): one language's summary, written only by the job
  running that language; the run and judging machinery merge them.
- ``results.json`` and ``table.md`` (``run``): the merged run, self-contained for
  ``mlbench report``.
"""

from mlbench.results.files import (
    language_path,
    model_slug,
    results_path,
    run_dir_lock,
    samples_path,
    write_atomic,
)
from mlbench.results.language import (
    LanguageFile,
    language_from_json,
    language_records,
    language_to_json,
    read_language,
    read_language_file,
    write_language,
    written_languages,
)
from mlbench.results.run import find_runs, merge_run, read_run, read_run_file, run_from_json, run_text, run_to_json
from mlbench.results.samples import append_samples, read_samples, rewrite_samples

__all__ = [
    "LanguageFile",
    "append_samples",
    "find_runs",
    "language_from_json",
    "language_records",
    "language_path",
    "language_to_json",
    "merge_run",
    "model_slug",
    "read_language",
    "read_language_file",
    "read_run",
    "read_run_file",
    "read_samples",
    "results_path",
    "rewrite_samples",
    "run_dir_lock",
    "run_from_json",
    "run_text",
    "run_to_json",
    "samples_path",
    "write_atomic",
    "write_language",
    "written_languages",
]
