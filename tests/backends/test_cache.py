from mlbench.backends.base import Backend
from mlbench.backends.cache import CachedBackend
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt


class CountingBackend(Backend):
    name = "fake"
    fingerprint = "fake-1"

    def __init__(self):
        self.requests_seen = 0

    def loglikelihood(self, requests, progress=None):
        self.requests_seen += len(requests)
        return [LoglikelihoodResult(-float(len(r.continuation)), len(r.continuation)) for r in requests]

    def generate(self, requests, progress=None):
        self.requests_seen += len(requests)
        return [Generation(r.prompt.text.upper(), 3, "stop") for r in requests]


def test_second_identical_call_is_answered_from_disk(tmp_path):
    requests = [LoglikelihoodRequest(Prompt(text="Q: a\nA:"), f" option {i}") for i in range(5)]
    inner = CountingBackend()
    first = CachedBackend(inner, tmp_path / "c.sqlite").loglikelihood(requests)
    assert inner.requests_seen == 5
    # A new process (new CachedBackend) over the same file: no request reaches the model.
    again = CountingBackend()
    cached = CachedBackend(again, tmp_path / "c.sqlite")
    assert cached.loglikelihood(requests) == first
    assert again.requests_seen == 0 and cached.hits == 5


def test_only_misses_are_computed_and_order_is_kept(tmp_path):
    inner = CountingBackend()
    cached = CachedBackend(inner, tmp_path / "c.sqlite")
    gen = [GenerationRequest(Prompt(text=t)) for t in ("a", "b")]
    cached.generate(gen[:1])
    out = cached.generate(gen)
    assert [g.text for g in out] == ["A", "B"]
    assert inner.requests_seen == 2


def test_fingerprint_separates_models(tmp_path):
    requests = [LoglikelihoodRequest(Prompt(text="x"), " y")]
    CachedBackend(CountingBackend(), tmp_path / "c.sqlite").loglikelihood(requests)
    other = CountingBackend()
    other.fingerprint = "fake-2"
    CachedBackend(other, tmp_path / "c.sqlite").loglikelihood(requests)
    assert other.requests_seen == 1


class FlakyBackend(CountingBackend):
    """Fails every request the first time it is called, then answers with n completions."""

    def generate(self, requests, progress=None):
        self.requests_seen += len(requests)
        if self.requests_seen == len(requests):
            return [Generation("", 0, "error", error="HTTP 503") for _ in requests]
        return [Generation("a", 1, "stop", alternatives=("b", "c")) for _ in requests]


def test_failures_are_not_cached_and_alternatives_survive_the_round_trip(tmp_path):
    requests = [GenerationRequest(Prompt(text="q"), n=3, temperature=0.7)]
    inner = FlakyBackend()
    cached = CachedBackend(inner, tmp_path / "c.sqlite")
    assert cached.generate(requests)[0].error == "HTTP 503"
    fresh = cached.generate(requests)[0]
    assert inner.requests_seen == 2 and fresh.alternatives == ("b", "c")
    reread = CachedBackend(FlakyBackend(), tmp_path / "c.sqlite").generate(requests)[0]
    assert reread == fresh


def test_a_sampled_answer_is_cached_per_run_seed(tmp_path):
    """A sampled request that names no seed is drawn with the run's --seed: another seed
    asks the model again; a greedy one, or one with its own seed, is the same answer."""
    sampled = GenerationRequest(Prompt(text="s"), temperature=0.5)
    fixed = GenerationRequest(Prompt(text="f"), temperature=0.5, seed=7)
    greedy = GenerationRequest(Prompt(text="g"))
    inner = CountingBackend()
    CachedBackend(inner, tmp_path / "c.sqlite", seed=1).generate([sampled, fixed, greedy])
    CachedBackend(inner, tmp_path / "c.sqlite", seed=1).generate([sampled, fixed, greedy])
    assert inner.requests_seen == 3
    CachedBackend(inner, tmp_path / "c.sqlite", seed=2).generate([sampled, fixed, greedy])
    assert inner.requests_seen == 4  # only the sampled one, drawn with the other seed
