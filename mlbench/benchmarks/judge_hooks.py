"""What a benchmark says about judging its samples: which judges run by default, which
protocols they take (``-J protocol``), the judge that reads each language of a run, what a
protocol refuses before the judge loads, and the texts a judge reads of a sample. The
``Task`` contract (``base.py``) takes these hooks from here; each has a default that suits
most benchmarks."""

from __future__ import annotations

from typing import ClassVar

from mlbench.judges.judge import Judge
from mlbench.judges.options import JudgeProtocol, JudgeProtocolName
from mlbench.records import SampleRecord
from mlbench.records.json_shapes import json_text
from mlbench.records.jsontypes import JsonObject


class JudgeHooks:
    # What `--judge` judges when no -J kind is given.
    default_judge_kinds: ClassVar[tuple[str, ...]] = ("truth",)
    # The -J protocol values this benchmark's judges take (``judge_for``), the default first.
    judge_protocols: ClassVar[tuple[JudgeProtocolName, ...]] = ("trained",)

    def judge_skip_reason(self, record: SampleRecord) -> str | None:
        """Why a judge must not read this sample's answer (None: judge it)."""
        return None

    def judge_for(self, judge: Judge, run_config: JsonObject, lang: str, protocol: JudgeProtocol) -> Judge:
        """The judge that reads this benchmark's samples in ``lang`` of a run with
        ``run_config`` (results.json's config): ``judge`` itself, unless the benchmark's
        protocol judges with a prompt of its own (XLingHealth's authors' correctness judge,
        TruthfulQA-Multi's under ``-J protocol=authors``: ``judge_protocols``). A judge of
        its own carries its own ``spec.sha256``, so its verdicts never mix."""
        return judge

    def check_judge_protocol(
        self, protocol: JudgeProtocol, kinds: tuple[str, ...], run_config: JsonObject, chat: bool | None
    ) -> None:
        """What this benchmark's judge protocol refuses before a judge model loads, for
        judges of ``kinds`` on a run with ``run_config`` (results.json's config, or what a
        run about to start records of its data) and the ``-J chat_template`` given."""

    def judged_answers(self, record: SampleRecord, kind: str, reads: str = "answer") -> dict[str, str]:
        """The texts a ``kind`` judge reads in a saved sample, by name. One named
        ``answer`` gives one verdict; several (MSQAD's two responses) give one each.
        ``reads``: the saved output a judge reads as the answer (``Judge.reads``)."""
        return {"answer": json_text(record.outputs[reads], "a saved answer")} if reads in record.outputs else {}
