"""A declared benchmark's prompt templates taken from its authors' task files (``[upstream]``,
``[templates]``, ``[vars]``), read into a ``TemplateSpec``.

Where a benchmark's authors published their prompts as lm-eval tasks (NorEval's five
templates per task, AraDiCE's dialect primers), the benchmark file names those files
instead of writing a prompt::

    [upstream]                    # the repository the prompts are read from, pinned
    repo = "EleutherAI/lm-evaluation-harness"
    commit = "<40 hex digits>"
    license = "MIT"
    files = { "lm_eval/tasks/x/utils.py" = "<sha256>", ... }   # every file read

    [templates]
    names = ["p0", "p1"]          # -T prompt=p1, or all; the first is the default
    mc = "lm_eval/tasks/x/{standard}/x_mc_{standard}_{template}.yaml"
    gen = "lm_eval/tasks/x/{standard}/x_gen_{standard}_{template}.yaml"

    [vars]                        # per language, values a path (or source.config) may use
    nb = { standard = "nob" }

A template's prompt, option delimiter and generation settings are the task file's
(``mlbench.data.untrusted.lm_eval_task``); every file must be listed, with its sha256, in
``upstream.files``.

The authors' lm-eval tasks, by name, for `mlbench import lm-eval` (each mode's names, with
``{lang}``, ``{template}`` and the [vars] as fields; MC may be two tasks, MC1 and MC2)::

    [lm_eval]
    mc = ["x_mc1_{standard}_{template}", "x_mc2_{standard}_{template}"]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mlbench.benchmarks.declarative.fields import known, template_fields, text, texts
from mlbench.errors import MlbenchError
from mlbench.records.budgets import NAME_MAX, check_path_length, shown

_COMMIT = re.compile(r"[0-9a-f]{40}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_TEMPLATE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # it becomes part of a path or a hub config
ALL_TEMPLATES = "all"
# The fields a path or a hub config, split or file pattern gets from mlbench: a [vars]
# name may not be one (format() would be given it twice).
RESERVED_FIELDS = ("lang", "template", "config", "split")


@dataclass(frozen=True)
class TemplateSpec:
    repo: str
    commit: str
    license: str
    files: tuple[tuple[str, str], ...]  # (path in the repository, sha256), as listed
    names: tuple[str, ...]
    paths: tuple[tuple[str, str], ...]  # (mode, path pattern with {template} and {vars})

    def path(self, mode: str, template: str, values: dict[str, str]) -> str:
        """The task file of ``mode`` under ``template`` for a language with ``values``."""
        return dict(self.paths)[mode].format(template=template, **values)


def read_vars(path: Path, table: object, languages: list[str]) -> dict[str, dict[str, str]]:
    """``[vars]``: language → {name: value}; every language the same names."""
    if not isinstance(table, dict):
        raise MlbenchError(f"{path}: vars must be a table ([vars])")
    unknown = [lang for lang in table if lang not in languages]
    if unknown:
        raise MlbenchError(f"{path}: vars.{unknown[0]} is not one of benchmark.languages")
    values: dict[str, dict[str, str]] = {}
    for lang, entry in table.items():
        if not isinstance(entry, dict) or not entry:
            raise MlbenchError(f"{path}: vars.{lang} must be a table of names and texts")
        for name, value in entry.items():
            if not name.isidentifier() or name in RESERVED_FIELDS:
                reserved = ", ".join(RESERVED_FIELDS)
                raise MlbenchError(f"{path}: vars.{lang}.{name}: a name is an identifier other than {reserved}")
            if not _VALUE.fullmatch(given := text(path, f"vars.{lang}.{name}", value)) or len(given) > NAME_MAX // 2:
                raise MlbenchError(
                    f"{path}: vars.{lang}.{name} must be letters, digits, '_', '.' or '-' (a path part), "
                    f"at most {NAME_MAX // 2} of them"
                )
        values[lang] = dict(entry)
    if values and (missing := [lang for lang in languages if lang not in values]):
        raise MlbenchError(f"{path}: vars has no entry for {missing[0]} (every language needs one)")
    if len({tuple(sorted(v)) for v in values.values()}) > 1:
        raise MlbenchError(f"{path}: every language in [vars] must give the same names")
    return values


def read_templates(
    path: Path, upstream: object, templates: object, modes: list[str], names: tuple[str, ...]
) -> TemplateSpec:
    """``[upstream]`` and ``[templates]`` (both or neither; the caller checks which);
    ``names`` are the ``[vars]`` names a path may use besides ``{template}``."""
    if not isinstance(upstream, dict):
        raise MlbenchError(f"{path}: upstream must be a table ([upstream])")
    if not isinstance(templates, dict):
        raise MlbenchError(f"{path}: templates must be a table ([templates])")
    known(path, "upstream", upstream, ("repo", "commit", "files", "license"))
    known(path, "templates", templates, ("names", "mc", "gen"))
    repo = text(path, "upstream.repo", upstream.get("repo"))
    commit = text(path, "upstream.commit", upstream.get("commit"))
    if not _COMMIT.fullmatch(commit):
        raise MlbenchError(f"{path}: upstream.commit must be a full commit id (40 hex digits)")
    files = upstream.get("files")
    if not isinstance(files, dict) or not files:
        raise MlbenchError(f"{path}: upstream.files must map each file read to its sha256")
    for file, digest in files.items():
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise MlbenchError(
                f"{path}: upstream.files.{shown(file)} must be a sha256 (64 lower-case hex digits, as sha256sum prints)"
            )
        if file.startswith("/") or ".." in file.split("/"):
            raise MlbenchError(f"{path}: upstream.files.{shown(file)} must be a path inside the repository")
        check_path_length(file, f"{path}: upstream.files")
    template_names = texts(path, "templates.names", templates.get("names", ["default"]))
    if not template_names:
        raise MlbenchError(f"{path}: templates.names is empty: list one template or more (or leave it out)")
    if any(not _TEMPLATE_NAME.fullmatch(n) or n == ALL_TEMPLATES for n in template_names):
        raise MlbenchError(f"{path}: templates.names must be names (letters, digits, '_', '-'), not {ALL_TEMPLATES!r}")
    if len(set(template_names)) != len(template_names):
        raise MlbenchError(f"{path}: templates.names lists a name twice")
    paths = []
    for mode in modes:
        if mode not in templates:
            raise MlbenchError(f"{path}: templates.{mode} is missing: each mode of the benchmark needs its task file")
        pattern = text(path, f"templates.{mode}", templates[mode])
        used = template_fields(path, f"templates.{mode}", pattern, ("template", *names))
        if len(template_names) > 1 and "template" not in used:
            raise MlbenchError(f"{path}: templates.{mode} must hold {{template}}: there are several templates")
        paths.append((mode, pattern))
    license_ = text(path, "upstream.license", upstream.get("license", "unknown"))
    return TemplateSpec(repo, commit, license_, tuple(files.items()), tuple(template_names), tuple(paths))


def read_lm_eval_names(
    path: Path,
    table: object,
    modes: tuple[str, ...],
    variables: dict[str, dict[str, str]],
    languages: list[str],
    templates: tuple[str, ...] | None,
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[lm_eval]``: per mode of the benchmark, lm-eval's names of its tasks, whose fields
    are ``{lang}``, ``{template}`` (with ``[templates]``) and the ``[vars]`` names (no
    format spec). Every language and template must get names of its own: a log is read as
    the one whose name it has."""
    if not isinstance(table, dict):
        raise MlbenchError(f"{path}: lm_eval must be a table ([lm_eval])")
    known(path, "lm_eval", table, modes)
    names = tuple(next(iter(variables.values()), {}))
    fields = ("lang", *(("template",) if templates is not None else ()), *names)
    found = []
    for mode, value in table.items():
        patterns = texts(path, f"lm_eval.{mode}", [value] if isinstance(value, str) else value)
        for pattern in patterns:
            template_fields(path, f"lm_eval.{mode}", pattern, fields)
        found.append((mode, tuple(patterns)))
    seen: dict[str, str] = {}
    for mode, mode_patterns in found:
        for pattern in mode_patterns:
            for lang in languages:
                for template in templates or ("",):
                    name = pattern.format(lang=lang, template=template, **variables.get(lang, {}))
                    whose = f"{lang}" + (f", template {template}" if template else "")
                    if seen.setdefault(name, whose) != whose:
                        raise MlbenchError(
                            f"{path}: lm_eval.{mode} names two tasks {name!r} ({seen[name]}; {whose}): give each "
                            "language (and template) its own with {lang}, {template} or the [vars]"
                        )
    return tuple(found)
