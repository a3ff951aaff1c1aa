"""A judge's verdicts on saved samples: what it reads of each sample, one backend call for
a chunk of samples, the ``judges.<kind>`` block each sample gets, and the metrics that
follow from it. The judging stage (``engine/judging.py``) calls these chunk by chunk."""

from __future__ import annotations

from mlbench.backends.base import Backend
from mlbench.benchmarks.base import Task
from mlbench.errors import MlbenchError
from mlbench.judges import Judge, JudgeSpec
from mlbench.judges.evidence import SearchClient, SearchError, evidence_text
from mlbench.metrics.judged import JUDGE_METRICS, judged_metrics
from mlbench.records import JudgeItem, SampleRecord, Verdict
from mlbench.records.json_shapes import json_text
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.usage import Usage, summed

# The key of an entry that carries its requests' usage to ``apply_entries``, which keeps it
# beside the verdict (``SampleRecord.judge_usage``), not in it.
USAGE = "usage"


def evidence_source(record: SampleRecord, search: SearchClient | None) -> str | None:
    """Where a sample's claims are checked: its human reference answer, else the search
    service, else nowhere (factuality is then n/a)."""
    if record.reference:
        return "human"
    return "search" if search is not None else None


def judge_items(
    record: SampleRecord,
    spec: JudgeSpec,
    skip_reason: str | None = None,
    search: SearchClient | None = None,
    answers: dict[str, str] | None = None,
) -> list[JudgeItem] | str:
    """What the judge reads of a sample, or why there is nothing to judge. ``answers`` are
    the texts to judge by name (default: the sample's answer). Raises SearchError when
    the evidence could not be fetched."""
    outputs = record.outputs
    if answers is None:
        answers = {"answer": _answer(outputs)} if "answer" in outputs else {}
    if not answers:
        return "no answer to judge (the generation failed)" if record.error else "no generated answer"
    question, reference = record.question, record.reference
    if question is None:  # an empty question is one (a dataset's row prompted as it is)
        raise MlbenchError(f"sample {record.id} has no question saved: rerun it with this mlbench version")
    if skip_reason:
        return skip_reason
    if spec.kind != "claim_support":
        if "reference" in spec.needs and not reference:
            return "no reference answer"
        return [JudgeItem(question, text, reference) for text in answers.values()]
    claims = record.judges.get("claims", {})
    if claims.get("label") != "parsed":
        return "no extracted claims (judge with -J kind=claims first)"
    source = evidence_source(record, search)
    if source is None:
        return "no evidence: the question has no human answer and no -J search_url was given"
    if source == "human" or search is None:
        return [JudgeItem(question, _answer(outputs), reference, claim) for claim in _claims(claims)]
    return [
        JudgeItem(question, _answer(outputs), evidence_text(search.snippets(claim)), claim) for claim in _claims(claims)
    ]


def _answer(outputs: JsonObject) -> str:
    return json_text(outputs["answer"], "a saved answer")


def _claims(verdict: JsonObject) -> list[str]:
    """The claims a parsed ``claims`` verdict lists (texts: mlbench wrote them)."""
    listed = verdict["claims"]
    if not isinstance(listed, list):
        raise TypeError(f"a saved claims verdict is a {type(listed).__name__}, not a list")
    return [json_text(claim, "a saved claim") for claim in listed]


def verdict_entry(
    spec: JudgeSpec,
    items: list[JudgeItem],
    verdicts: list[Verdict],
    source: str | None = None,
    names: list[str] | None = None,
) -> JsonObject:
    """The ``judges.<kind>`` block of one sample. Several judged texts (``names``, e.g.
    MSQAD's direct and adversarial responses) give one verdict each under ``answers``."""
    if spec.kind != "claim_support" and names and names != ["answer"]:
        named: JsonObject = {"answers": {name: v.to_json() for name, v in zip(names, verdicts)}}
        failure = next((v.error for v in verdicts if v.error), None)
        return {**named, "judge_error": failure} if failure else named
    if spec.kind != "claim_support":
        return verdicts[0].to_json()
    per_claim: list[JsonValue] = []
    for item, verdict in zip(items, verdicts):
        line: JsonObject = {"claim": item.claim, **verdict.to_json()}
        if source == "search":
            line["evidence"] = item.reference  # the snippets, kept to show why
        per_claim.append(line)
    entry: JsonObject = {"claims": per_claim}
    failure = next((v.error for v in verdicts if v.error), None)
    if failure:
        entry["judge_error"] = failure
        return entry
    labels = [v.label for v in verdicts if v.label in ("yes", "no")]
    # No claim, or none readable: the share is undefined (n/a), never 0.
    entry["supported"] = sum(label == "yes" for label in labels) / len(labels) if labels else None
    entry["unreadable"] = len(verdicts) - len(labels)
    return entry


def needs_verdict(record: SampleRecord, kind: str, settings_hash: str, resume: bool) -> bool:
    entry = record.judges.get(kind)
    if not resume or entry is None:
        return True
    return entry.get("settings_hash") != settings_hash or "judge_error" in entry or "skipped" in entry


def judge_records(
    judge: Judge,
    backend: Backend,
    records: list[SampleRecord],
    settings: JsonObject,
    task: Task | None = None,
    search: SearchClient | None = None,
) -> dict[str, JsonObject]:
    """Verdict blocks by sample id for ``records`` (one backend call for all of them)."""
    planned: dict[str, list[JudgeItem] | str | SearchError] = {}
    names: dict[str, list[str]] = {}
    for record in records:
        skip = task.judge_skip_reason(record) if task is not None else None
        answers = task.judged_answers(record, judge.spec.kind, judge.reads) if task is not None else None
        names[record.id] = list(answers or {})
        try:
            planned[record.id] = judge_items(record, judge.spec, skip, search, answers)
        except SearchError as error:
            planned[record.id] = error
    flat = [item for items in planned.values() if isinstance(items, list) for item in items]
    verdicts = iter(judge.verdicts(backend, flat))
    stamp = {"judge": settings["judge"], "settings_hash": settings["settings_hash"]}
    by_id = {r.id: r for r in records}
    entries = {}
    for sample_id, items in planned.items():
        source = evidence_source(by_id[sample_id], search) if judge.spec.kind == "claim_support" else None
        extra = {"evidence": source} if judge.spec.kind == "claim_support" else {}
        if isinstance(items, SearchError):
            entries[sample_id] = {**stamp, **extra, "judge_error": str(items)}
        elif isinstance(items, str):
            entries[sample_id] = {**stamp, **extra, "skipped": items}
        else:
            given = [next(verdicts) for _ in items]
            verdict = verdict_entry(judge.spec, items, given, source, names[sample_id])
            usage = summed(v.usage for v in given)
            entries[sample_id] = {**stamp, **extra, **verdict, **({USAGE: usage.to_json()} if usage else {})}
    return entries


def apply_entries(record: SampleRecord, kind: str, entry: JsonObject, task: Task) -> None:
    """Put a verdict block into a saved sample and recompute what depends on verdicts."""
    entry = dict(entry)
    usage = entry.pop(USAGE, None)
    record.judges[kind] = entry
    # Replaced with the verdict, never added to: a kind judged again counts once.
    record.judge_usage.pop(kind, None)
    if usage is not None:
        record.judge_usage[kind] = Usage.from_json(usage)
    derived = set(JUDGE_METRICS) | set(task.combined_metric_names)
    kept = {k: v for k, v in record.metrics.items() if k not in derived}
    record.metrics = {**kept, **judged_metrics(record.judges)}
    record.metrics.update(task.combined_metrics(record))
