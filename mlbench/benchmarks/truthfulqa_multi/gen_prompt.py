"""The generation prompt of TruthfulQA-Multi's authors (docs/protocols.md#truthfulqa-multi).

Their released lm-eval logs (hitz-zentroa/truthfulqa-multi, ``results/gen``), which
lm-eval 0.4.13's ``truthfulqa-multi_gen_<lang>`` tasks reproduce, show:

- each shot is ``Q: <question> A: <answer>`` on one line (a space before ``A:``), shots
  joined by a blank line;
- the prompt ends with ``Q: <question>``: the model writes `` A: ...`` itself;
- questions are stripped of surrounding whitespace (the MC prompt keeps them as released);
- with a chat template, each shot is a user turn ``Q: ...`` and an assistant turn
  ``A: ...``, and the question is the last user turn (lm-eval's
  ``--apply_chat_template --fewshot_as_multiturn``).

Generation stops at the first of ``STOP`` (the stop text is not kept).
"""

from __future__ import annotations

from pathlib import Path

from mlbench.benchmarks.qa_prompt import render_qa_prompt
from mlbench.records import Prompt
from mlbench.resources import load_prompt

STOP = ("!\n\n", "Q:", ".\n\n")
# Between a shot's question and its answer, as lm-eval's target delimiter.
SHOT_DELIMITER = " "


def authors_gen_prompt(
    prompt_dir: Path,
    question: str,
    primer: list[tuple[str, str]],
    *,
    chat: bool,
    system_prompt: str | None,
) -> Prompt:
    """The prompt for ``question`` after the ``primer`` pairs, in the authors' format
    (``gen_question`` and ``gen_answer`` templates from ``prompt_dir``)."""
    ask, answer = load_prompt(prompt_dir, "gen_question"), load_prompt(prompt_dir, "gen_answer")
    # The labels go into the texts themselves, so that chat turns carry them too.
    shots = [(ask.format(question=q.strip()), answer.format(answer=a)) for q, a in primer]
    return render_qa_prompt(
        "{question}" + SHOT_DELIMITER + "{answer}",
        "{question}",
        ask.format(question=question.strip()),
        shots,
        chat=chat,
        system_prompt=system_prompt,
    )
