"""Issue 50, findings 1-5: an lm-eval task file (YAML, its Jinja ``doc_to_text``, its
generation settings) asking for unbounded work or holding values of another type. Each
run is a child process under a 4 GB address-space limit: a refusal is one line naming the
file, exit 2, within seconds; before the budgets, these ran for minutes, took the memory,
aborted the process or ended in a traceback."""

from __future__ import annotations

import pytest

from tests.hostile.untrusted_files import assert_refused, hostile_copy, run_bounded, run_here

BASE = "output_type: multiple_choice\nnum_fewshot: 0\n"
# "Billion laughs": nine levels, each listing the one before nine times (9**9 leaves).
BOMB = 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9)
)


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("doc_to_text", BASE + BOMB + "doc_to_text: *a8\n"),
        ("include", BASE + BOMB + "include: *a8\ndoc_to_text: question\n"),
    ],
)
def test_1_an_alias_bomb_is_refused_before_it_is_expanded(tiny_model, tmp_path, where, text):
    copy = hostile_copy(tmp_path / "copy", task_file=text)
    ended = run_bounded(tiny_model, copy, tmp_path / "out")
    assert_refused(ended, "nortruthfulqa_mc_nob_p1.yaml", "aliases are expanded", seconds=60)


@pytest.mark.parametrize("nesting", ["[" * 100_000 + "]" * 100_000, "{a: " * 100_000 + "b" + "}" * 100_000])
def test_2_yaml_nested_100000_deep_is_one_line(tiny_model, tmp_path, nesting, monkeypatch):
    copy = hostile_copy(tmp_path / "copy", task_file=BASE + f"doc_to_text: question\nx: {nesting}\n")
    ended = run_here(monkeypatch, tiny_model, copy, tmp_path / "out")
    assert_refused(ended, "nortruthfulqa_mc_nob_p1.yaml", "nested over")


def test_2_a_hub_card_nested_100000_deep_is_one_line(tiny_model, tmp_path, monkeypatch):
    copy = hostile_copy(tmp_path / "copy")
    card = copy / "nortruthfulqa" / "README.md"
    card.write_text("---\nconfigs: " + "[" * 100_000 + "]" * 100_000 + "\n---\n# card\n", encoding="utf-8")
    assert_refused(run_here(monkeypatch, tiny_model, copy, tmp_path / "out"), "README.md", "nested over")


def test_3_nested_loops_in_jinja_stop_at_the_step_budget(tiny_model, tmp_path):
    loops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    copy = hostile_copy(tmp_path / "copy", task_file=BASE + f'doc_to_text: "{loops}{{{{question}}}}"\n')
    ended = run_bounded(tiny_model, copy, tmp_path / "out")
    assert_refused(ended, "nortruthfulqa_mc_nob_p1.yaml", "steps", seconds=60)


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ("{{ 'x ' * 5000000 }}{{question}}", "repeats a text"),
        ("{{ '%9999999999s' % question }}", "width"),
        ("{{ '{:>9999999999}'.format(question) }}", "width"),
        ("{{ question|center(9999999999) }}", "center"),
        ("{% for i in range(99999) %}{{ question }}{% endfor %}", "writes over 1,000,000 characters"),
    ],
)
def test_4_a_jinja_prompt_past_the_cap_is_refused_before_the_tokenizer(tiny_model, tmp_path, template, said):
    copy = hostile_copy(tmp_path / "copy", task_file=BASE + f'doc_to_text: "{template}"\n')
    ended = run_bounded(tiny_model, copy, tmp_path / "out")
    assert_refused(ended, "nortruthfulqa_mc_nob_p1.yaml", said, seconds=60)


def test_4_a_question_past_the_cap_is_refused_before_the_tokenizer(tiny_model, tmp_path):
    # A column read as the prompt: the data, not a template, makes it 10 million characters.
    copy = hostile_copy(tmp_path / "copy", task_file=BASE + "doc_to_text: question\n")
    data = copy / "nortruthfulqa" / "nb" / "validation.jsonl"
    rows = data.read_text(encoding="utf-8").splitlines()
    data.write_text("".join(row.replace('"question": "', '"question": "' + "x " * 5_000_000) + "\n" for row in rows))
    ended = run_bounded(tiny_model, copy, tmp_path / "out")
    assert_refused(ended, "nortruthfulqa nb", "a prompt of 10,000,", seconds=90)


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ('temperature: "0.0"', "generation_kwargs.temperature must be a number (got '0.0')"),
        ("temperature: [0.5]", "generation_kwargs.temperature must be a number"),
        ("do_sample: 1", "generation_kwargs.do_sample must be true or false"),
        ('num_beams: "1"', "generation_kwargs.num_beams must be a whole number"),
        ("max_gen_toks: 1.5", "generation_kwargs.max_gen_toks must be a whole number"),
        ("max_gen_toks: 100000000000", "generation_kwargs.max_new_tokens must be a whole number from 1 to 100,000"),
    ],
)
def test_5_generation_settings_of_another_type_are_one_line(tiny_model, tmp_path, setting, said, monkeypatch):
    task_file = BASE + f"doc_to_text: question\ngeneration_kwargs:\n  {setting}\n"
    ended = run_here(monkeypatch, tiny_model, hostile_copy(tmp_path / "copy", task_file=task_file), tmp_path / "out")
    assert_refused(ended, "nortruthfulqa_mc_nob_p1.yaml", said)
