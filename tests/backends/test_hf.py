import json

import pytest

from mlbench.backends.base import cut_at_stop
from mlbench.backends.hf import HFBackend
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import LanguageData, TaskOptions
from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.records import GenerationRequest, LoglikelihoodRequest, Prompt


def six_shot_requests(lang: str, n_questions: int) -> list[LoglikelihoodRequest]:
    task = get_task("truthfulqa_multi")
    split = load_truthfulqa_multi(lang, DataSource("sample"))
    data = LanguageData(split.samples, split.primer)
    return [r for s in split.samples[:n_questions] for r in task.mc_requests(s, data, TaskOptions())]


@pytest.mark.parametrize("lang", ["en", "eu"])
def test_shared_prefix_equals_naive_scoring(tiny_model, hf_backend, lang):
    requests = six_shot_requests(lang, 5)
    naive = HFBackend(str(tiny_model), device="cpu", batch_size=3, prefix_sharing=False)
    shared = hf_backend.loglikelihood(requests)
    reference = naive.loglikelihood(requests)
    assert len(shared) == len(requests) > 20
    for ours, theirs in zip(shared, reference):
        assert ours.n_tokens == theirs.n_tokens
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-4)


def test_scores_equal_one_forward_over_context_and_option(tiny_model, hf_backend):
    import torch

    tokenizer, model = hf_backend.tokenizer, hf_backend.model
    context, option = "Q: Are bats blind?\nA:", " No, bats can see."
    context_ids = tokenizer.encode(context)
    option_ids = tokenizer.encode(context + option)[len(context_ids) :]
    with torch.inference_mode():
        logits = model(torch.tensor([context_ids + option_ids])).logits[0].log_softmax(-1)
    expected = sum(float(logits[len(context_ids) - 1 + i, t]) for i, t in enumerate(option_ids))
    result = hf_backend.loglikelihood([LoglikelihoodRequest(Prompt(text=context), option)])[0]
    assert result.n_tokens == len(option_ids)
    assert result.logprob == pytest.approx(expected, abs=1e-4)


def test_trailing_context_whitespace_moves_into_the_continuation(hf_backend):
    a = hf_backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA: "), "No.")])[0]
    b = hf_backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA:"), " No.")])[0]
    assert a == b


def test_batch_size_does_not_change_scores(tiny_model, hf_backend):
    requests = six_shot_requests("es", 3)
    one = HFBackend(str(tiny_model), device="cpu", batch_size=1)
    for x, y in zip(one.loglikelihood(requests), hf_backend.loglikelihood(requests)):
        assert x.logprob == pytest.approx(y.logprob, abs=1e-4)


def test_generation_honours_stop_strings(hf_backend):
    prompt = Prompt(text="Q: What happens if you swallow chewing gum?\nA:")
    free = hf_backend.generate([GenerationRequest(prompt, max_new_tokens=24)])[0]
    assert free.finish_reason == "length" and len(free.text) > 6
    stop = free.text[3:6]  # a string the model is known to produce
    cut = hf_backend.generate([GenerationRequest(prompt, max_new_tokens=24, stop=(stop,))])[0]
    assert cut.finish_reason == "stop"
    assert cut.text == free.text[: free.text.find(stop)]
    assert stop not in cut.text


def test_generation_batches_give_each_prompt_its_own_answer(hf_backend):
    prompts = [Prompt(text="Q: Are bats blind?\nA:"), Prompt(text="Q: Zer gertatzen da?\nA:")]
    together = hf_backend.generate([GenerationRequest(p, max_new_tokens=8) for p in prompts])
    alone = [hf_backend.generate([GenerationRequest(p, max_new_tokens=8)])[0] for p in prompts]
    assert [g.text for g in together] == [g.text for g in alone]


def test_cut_at_stop():
    assert cut_at_stop("abc\n\nQ: next", ("Q:", "\n\n")) == ("abc", True)
    assert cut_at_stop("abc", ("Q:",)) == ("abc", False)


def test_missing_model_path(tmp_path):
    with pytest.raises(MlbenchError, match="model path not found"):
        HFBackend(str(tmp_path / "nope"), device="cpu")


def test_model_that_is_not_a_causal_lm(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "t5", "vocab_size": 10}))
    with pytest.raises(MlbenchError, match="'t5' model, not a causal language model"):
        HFBackend(str(tmp_path), device="cpu")


def test_model_dir_without_weights(tmp_path, tiny_model):
    (tmp_path / "config.json").write_text((tiny_model / "config.json").read_text())
    with pytest.raises(MlbenchError, match="could not load (model|the tokenizer)"):
        HFBackend(str(tmp_path), device="cpu")


def test_n_greedy_answers_are_the_greedy_answer_n_times(hf_backend):
    prompt = Prompt(text="Q: Are bats blind?\nA:")
    single = hf_backend.generate([GenerationRequest(prompt, max_new_tokens=8)])[0]
    many = hf_backend.generate([GenerationRequest(prompt, max_new_tokens=8, n=4)])[0]
    assert many.text == single.text and many.alternatives == (single.text,) * 3
