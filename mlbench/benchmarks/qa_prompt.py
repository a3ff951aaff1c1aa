"""Q/A prompts shared by the TruthfulQA-style benchmarks, and their answer clean-up."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from mlbench.metrics import bleu_metrics
from mlbench.records import ChatMessage, Generation, Prompt
from mlbench.records.jsontypes import JsonObject
from mlbench.resources import load_prompt

_THINK = re.compile(r"<think>.*?(</think>|$)", flags=re.DOTALL)
_LEADING_ANSWER_LABEL = re.compile(r"^\s*A:\s*")


def qa_prompt(
    prompt_dir: Path,
    question: str,
    primer: list[tuple[str, str]],
    *,
    chat: bool,
    system_prompt: str | None,
) -> Prompt:
    """Few-shot pairs then the question, as text (``shot`` and ``question`` templates joined
    by blank lines, read from ``prompt_dir``) or, for chat models, as
    user/assistant turns."""
    return render_qa_prompt(
        load_prompt(prompt_dir, "shot") if primer and not chat else "",
        load_prompt(prompt_dir, "question"),
        question,
        primer,
        chat=chat,
        system_prompt=system_prompt,
    )


def render_qa_prompt(
    shot_template: str,
    question_template: str,
    question: str,
    primer: list[tuple[str, str]],
    *,
    chat: bool,
    system_prompt: str | None,
) -> Prompt:
    """``qa_prompt`` from templates given as text (a declarative benchmark's own): each
    shot is ``shot_template`` with ``{question}`` and ``{answer}``, the question is
    ``question_template`` with ``{question}``; chat prompts use the raw texts as turns."""
    if chat:
        turns = [ChatMessage("system", system_prompt)] if system_prompt else []
        for shot_question, shot_answer in primer:
            turns += [ChatMessage("user", shot_question), ChatMessage("assistant", shot_answer)]
        # Every question of a language shares the system turn and the primer turns.
        return Prompt(messages=(*turns, ChatMessage("user", question)), shared_prefix=len(turns))
    blocks = [system_prompt] if system_prompt else []
    blocks += [shot_template.format(question=q, answer=a) for q, a in primer]
    shared = sum(len(block) + 2 for block in blocks)  # each block and the blank line after it
    blocks.append(question_template.format(question=question))
    return Prompt(text="\n\n".join(blocks), shared_prefix=shared)


def option_delimiter(chat: bool) -> str:
    """Options are scored as " option" after a text prompt, and as-is after a chat prompt
    (the assistant turn starts clean)."""
    return "" if chat else " "


def clean_answer(text: str) -> str:
    """Drop reasoning blocks and a leading ``A:`` label, then surrounding whitespace."""
    return _LEADING_ANSWER_LABEL.sub("", _THINK.sub("", text)).strip()


def score_answer_bleu(
    generation: Generation,
    true_refs: list[str],
    false_refs: list[str],
    *,
    bleu_on: Literal["answer", "generation"] = "answer",
) -> tuple[JsonObject, dict[str, float]]:
    """Keep the completion as generated (``generation``) and its clean answer (``answer``:
    what judges and surface checks read), and score BLEU on the one ``bleu_on`` names.
    An empty answer is kept and flagged (it scores 0), never dropped."""
    answer = clean_answer(generation.text)
    outputs: JsonObject = {
        "generation": generation.text,
        "answer": answer,
        "empty": not answer,
        "finish_reason": generation.finish_reason,
    }
    scored = answer if bleu_on == "answer" else generation.text
    return outputs, bleu_metrics(scored, true_refs, false_refs)
