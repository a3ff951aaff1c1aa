"""Topic distributions for the topic-model consistency metrics (docs/protocols.md#xlinghealth): an LDA with
20 or 100 topics, or an HDP, fitted on every answer of one dataset in one language; two
answers are then compared by the cosine of their topic distributions.

gensim is imported when a model is fitted. Fitting is seeded, so the same answers give
the same similarities.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

TopicModel = Literal["lda", "hdp"]


def topic_distributions(
    documents: Sequence[Sequence[str]], *, model: TopicModel, num_topics: int = 20, seed: int = 0
) -> np.ndarray | None:
    """One row per document: its topic distribution under a model fitted on all of them
    (dense, topics the model gives no weight are 0). None when the documents have no
    tokens at all, so there is nothing to fit."""
    from gensim.corpora import Dictionary

    dictionary = Dictionary(documents)
    if len(dictionary) == 0:
        return None
    corpus = [dictionary.doc2bow(doc) for doc in documents]
    # Inference is itself randomised: each distinct document is inferred once, so identical
    # answers get identical distributions (and a similarity of exactly 1).
    distinct = list(dict.fromkeys(tuple(doc) for doc in documents))
    row_of = {doc: i for i, doc in enumerate(distinct)}
    bows = [dictionary.doc2bow(list(doc)) for doc in distinct]
    if model == "lda":
        from gensim.models import LdaModel

        lda = LdaModel(corpus, id2word=dictionary, num_topics=num_topics, random_state=seed)
        rows = [lda.get_document_topics(bow, minimum_probability=0.0) for bow in bows]
        size = num_topics
    else:
        from gensim.models import HdpModel

        hdp = HdpModel(corpus, id2word=dictionary, random_state=seed)
        rows = [hdp[bow] for bow in bows]
        size = hdp.m_T
    dense = np.zeros((len(distinct), size))
    for i, row in enumerate(rows):
        for topic, weight in row:
            dense[i, topic] = weight
    return dense[[row_of[tuple(doc)] for doc in documents]]
