"""A judge's prompt file: what it asks, what shape of answer it expects.

``prompts/judges/<kind>.toml`` holds ``output`` (``yes_no`` | ``label`` | ``claims``),
``text`` (a ``str.format`` template over ``question``, ``answer``, ``reference``,
``claim``), an optional ``system`` message (sent to chat judges only), ``labels`` and
``synonyms`` for label judges, and ``max_new_tokens`` for judges that write text.
"""

from __future__ import annotations

import hashlib
import string
import sys
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.judges.parsing import YES_NO, label_vocabulary
from mlbench.resources import prompts_dir

# One judge per file, <kind>.toml, in the project's prompts/judges/ tree.
PROMPTS = prompts_dir("judges")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

Output = Literal["yes_no", "label", "claims"]
FIELDS = ("question", "answer", "reference", "claim")


@dataclass(frozen=True)
class JudgeSpec:
    kind: str
    output: Output
    text: str
    system: str | None = None
    labels: tuple[str, ...] = ()
    synonyms: tuple[tuple[str, str], ...] = ()
    max_new_tokens: int = 8
    sha256: str = field(default="", compare=False)

    @property
    def needs(self) -> tuple[str, ...]:
        """The sample fields the template uses, e.g. ("question", "answer")."""
        used = _fields_in(self.text)
        return tuple(f for f in FIELDS if f in used)

    def vocabulary(self) -> dict[str, str]:
        return dict(YES_NO) if self.output == "yes_no" else label_vocabulary(self.labels, dict(self.synonyms))


def judge_kinds() -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in PROMPTS.glob("*.toml")))


@cache
def load_spec(kind: str) -> JudgeSpec:
    kinds = judge_kinds()
    if kind not in kinds:
        shown = clipped(repr(kind))
        raise MlbenchError(f"unknown judge kind {shown}{did_you_mean(kind, kinds)}; available: {', '.join(kinds)}")
    raw = (PROMPTS / f"{kind}.toml").read_bytes()
    data = tomllib.loads(raw.decode("utf-8"))
    spec = JudgeSpec(
        kind=kind,
        output=data["output"],
        text=data["text"],
        system=data.get("system"),
        labels=tuple(data.get("labels", ())),
        synonyms=tuple(data.get("synonyms", {}).items()),
        max_new_tokens=int(data.get("max_new_tokens", 8)),
        sha256=hashlib.sha256(raw).hexdigest()[:16],
    )
    unknown = _fields_in(spec.text) - set(FIELDS)
    if spec.output not in ("yes_no", "label", "claims") or unknown:
        raise MlbenchError(f"prompts/judges/{kind}.toml: bad output {spec.output!r} or fields {sorted(unknown)}")
    return spec


def _fields_in(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
