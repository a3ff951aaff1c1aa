"""The model-based consistency metrics of a language (docs/protocols.md#xlinghealth), added once every
sample of the language has its answers: sim_sent (sentence-embedding cosine), BERTScore
F1, and the cosine of topic distributions from LDA (20 and 100 topics) and HDP models
fitted on all answers of one dataset in one language.

Each metric is the mean over every pair of a question's K answers at one temperature,
saved as ``<metric>@<τ>`` in the sample. The settings and the set of answers they were
computed from are saved too (``outputs.consistency_models``), so a resumed run recomputes
only what changed: a new embedder, or new answers, which change the topic models.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import numpy as np

from mlbench.benchmarks.base import StartProgress
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.metrics.descriptor import count, score
from mlbench.metrics.names import at
from mlbench.metrics.similarity import mean_pairwise, tokens
from mlbench.metrics.topics import TopicModel, topic_distributions
from mlbench.records import SampleRecord
from mlbench.records.json_shapes import json_list, json_object, json_text
from mlbench.records.jsontypes import JsonObject, JsonValue

NGRAM_METRICS = ("sim_1gram", "sim_2gram", "length")
MODEL_METRICS = ("sim_sent", "bertscore_f1", "sim_lda20", "sim_lda100", "sim_hdp")
CONSISTENCY_METRICS = NGRAM_METRICS + MODEL_METRICS
# What each is (see mlbench/metrics/descriptor.py): a mean over pairs of one question's
# answers at one temperature; more alike answers are more consistent (the paper's reading).
CONSISTENCY_DESCRIPTORS = (
    score("sim_1gram", "mean word-unigram Jaccard similarity of a question's answers"),
    score("sim_2gram", "mean word-bigram Jaccard similarity of a question's answers"),
    count("length", "mean answer length in words (characters for Chinese and Japanese)"),
    score("sim_sent", "mean cosine similarity of the answers' sentence embeddings"),
    score("bertscore_f1", "mean BERTScore F1 between pairs of answers"),
    score("sim_lda20", "mean cosine similarity of the answers' 20-topic LDA distributions"),
    score("sim_lda100", "mean cosine similarity of the answers' 100-topic LDA distributions"),
    score("sim_hdp", "mean cosine similarity of the answers' HDP topic distributions"),
)
TOPIC_MODELS: dict[str, tuple[TopicModel, int]] = {
    "sim_lda20": ("lda", 20),
    "sim_lda100": ("lda", 100),
    "sim_hdp": ("hdp", 0),
}

# (record index, temperature key) → that question's K answers
Answers = dict[tuple[int, str], list[str]]
# The same slots → the model metrics found for them so far (metric name → value)
Values = dict[tuple[int, str], dict[str, float]]


def _consistency(record: SampleRecord) -> JsonObject:
    """The consistency answers ``score`` saved: temperature → texts."""
    return json_object(record.outputs["consistency"], "a sample's consistency answers")


def _texts(value: JsonValue) -> list[str]:
    return [json_text(text, "a consistency answer") for text in json_list(value, "consistency answers")]


def _stamp(options: XLingHealthOptions, seed: int, answers: Answers, ids: list[str]) -> JsonObject:
    digest = hashlib.sha256(json.dumps([[ids[i], key, texts] for (i, key), texts in answers.items()]).encode())
    return {
        "embedder": options.embedder,
        "bertscore_model": options.bertscore_model,
        "bertscore_layer": options.bertscore_layer,
        "topic_seed": seed,
        "answers": digest.hexdigest()[:16],
    }


def add_model_metrics(
    records: list[SampleRecord], options: XLingHealthOptions, seed: int, start_progress: StartProgress | None = None
) -> bool:
    """Add the model-based metrics to the samples of ``records`` that have consistency
    answers, dataset by dataset; True when any sample changed. ``start_progress(what,
    total)`` is called once, when there is work, for a progress bar."""
    groups: dict[str | None, list[SampleRecord]] = {}
    for record in records:
        if "consistency" in record.outputs:
            groups.setdefault(record.group, []).append(record)
    stale = []
    for members in groups.values():
        answers: Answers = {
            (i, key): _texts(texts) for i, r in enumerate(members) for key, texts in _consistency(r).items()
        }
        stamp = _stamp(options, seed, answers, [r.id for r in members])
        if not all(r.outputs.get("consistency_models") == stamp for r in members):
            stale.append((members, answers, stamp))
    if not stale:
        return False
    # Three steps per question × temperature: sentence embeddings, BERTScore, topic models.
    total = 3 * sum(len(answers) for _, answers, _ in stale)
    advance = start_progress("consistency models", total) if start_progress else (lambda n: None)
    for members, answers, stamp in stale:
        lang = members[0].lang
        values: Values = {slot: {} for slot in answers}
        _sentence_similarity(answers, options, values)
        advance(len(answers))
        _bertscore(answers, options, values, advance)
        _topic_similarity(answers, lang, seed, values)
        advance(len(answers))
        for i, record in enumerate(members):
            kept = {k: v for k, v in record.metrics.items() if k.split("@")[0] not in MODEL_METRICS}
            for (j, key), metrics in values.items():
                if j == i:
                    kept.update({at(name, key): value for name, value in metrics.items()})
            record.metrics = kept
            record.outputs["consistency_models"] = stamp
    return True


def _pairwise_from(matrix: np.ndarray) -> float:
    return mean_pairwise(range(len(matrix)), lambda i, j: float(matrix[i, j]))


def _sentence_similarity(answers: Answers, options: XLingHealthOptions, values: Values) -> None:
    from mlbench.backends.embedders import NO_MODEL, load_embedder

    if options.embedder == NO_MODEL:
        return
    embedder = load_embedder(options.embedder)
    unique = sorted({t for texts in answers.values() for t in texts})
    vectors = dict(zip(unique, embedder.embed(unique)))
    for slot, texts in answers.items():
        matrix = np.stack([vectors[t] for t in texts])
        values[slot]["sim_sent"] = _pairwise_from(matrix @ matrix.T)


def _bertscore(answers: Answers, options: XLingHealthOptions, values: Values, advance: Callable[[int], None]) -> None:
    from mlbench.backends.embedders import NO_MODEL, load_bertscorer

    if options.bertscore_model == NO_MODEL:
        advance(len(answers))
        return
    scorer = load_bertscorer(options.bertscore_model, options.bertscore_layer)
    for slot, texts in answers.items():
        values[slot]["bertscore_f1"] = _pairwise_from(scorer.f1_matrix(texts))
        advance(1)


def _topic_similarity(answers: Answers, lang: str, seed: int, values: Values) -> None:
    slots = list(answers)
    documents = [tokens(t, lang) for slot in slots for t in answers[slot]]
    for metric, (model, topics) in TOPIC_MODELS.items():
        distributions = topic_distributions(documents, model=model, num_topics=topics, seed=seed)
        if distributions is None:
            continue  # no answer has a word: nothing to fit, the metric stays n/a
        start = 0
        for slot in slots:
            rows = distributions[start : start + len(answers[slot])]
            start += len(answers[slot])
            values[slot][metric] = _pairwise_from(_cosines(rows))


def _cosines(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = rows / np.where(norms == 0, 1, norms)
    return unit @ unit.T
