"""Consistency of repeated answers (docs/protocols.md#xlinghealth): n-gram Jaccard similarity, length, and
the mean over all pairs of a question's answers. Pure functions over strings and vectors.

Tokens follow the script: words for Latin and Devanagari text, single characters for
Chinese and Japanese, which are written without spaces.

>>> ngram_jaccard("the cat sat", "the cat ran", n=1, lang="en")
0.5
>>> tokens("感冒了吗?", "zh")
['感', '冒', '了', '吗']
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence

CHARACTER_LANGS = frozenset({"zh", "ja"})
# Letters, digits and combining marks (Devanagari vowel signs are marks): a word is a run of them.
_WORD = re.compile(r"[^\W_]+(?:[\u0300-\u036f\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963][^\W_]*)*")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_OR_KANA = re.compile(f"[{_CJK}]")
_CHARACTER_OR_RUN = re.compile(f"[{_CJK}]|[^{_CJK}]+")


def tokens(text: str, lang: str) -> list[str]:
    """Lower-cased tokens: characters (punctuation and spaces dropped) for Chinese and
    Japanese, words elsewhere. Latin words inside Chinese text stay whole words."""
    text = text.lower()
    if lang not in CHARACTER_LANGS:
        return _WORD.findall(text)
    out: list[str] = []
    for word in _WORD.findall(text):
        if _HAN_OR_KANA.search(word):
            # A run such as "感冒了abc" splits into its characters, keeping Latin runs whole.
            out += _CHARACTER_OR_RUN.findall(word)
        else:
            out.append(word)
    return out


def ngrams(items: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(items[i : i + n]) for i in range(len(items) - n + 1)}


def jaccard(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> float:
    """|a ∩ b| / |a ∪ b|; two empty sets count as identical (1.0)."""
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def ngram_jaccard(a: str, b: str, *, n: int, lang: str) -> float:
    return jaccard(ngrams(tokens(a, lang), n), ngrams(tokens(b, lang), n))


def length_in_words(text: str, lang: str) -> int:
    """Length as the paper counts it: words, or characters for Chinese and Japanese."""
    return len(tokens(text, lang))


def mean_pairwise(items: Sequence[object], similarity: Callable[[int, int], float]) -> float:
    """Mean of ``similarity(i, j)`` over every unordered pair i < j of ``items``
    (1.0 for fewer than two items: one answer agrees with itself)."""
    pairs = list(itertools.combinations(range(len(items)), 2))
    if not pairs:
        return 1.0
    return sum(similarity(i, j) for i, j in pairs) / len(pairs)


def cosine(u: Sequence[float], v: Sequence[float]) -> float:
    """Cosine of two vectors; 0.0 when either is all zeros."""
    dot = sum(x * y for x, y in zip(u, v, strict=True))
    norm = math.sqrt(sum(x * x for x in u)) * math.sqrt(sum(y * y for y in v))
    return dot / norm if norm else 0.0


def ngram_consistency(answers: Sequence[str], lang: str) -> dict[str, float]:
    """The model-free consistency metrics of one question's answers at one temperature:
    mean pairwise 1-gram and 2-gram Jaccard, and mean length."""
    grams = {n: [ngrams(tokens(a, lang), n) for a in answers] for n in (1, 2)}
    return {
        "sim_1gram": mean_pairwise(answers, lambda i, j: jaccard(grams[1][i], grams[1][j])),
        "sim_2gram": mean_pairwise(answers, lambda i, j: jaccard(grams[2][i], grams[2][j])),
        "length": sum(length_in_words(a, lang) for a in answers) / len(answers) if answers else 0.0,
    }
