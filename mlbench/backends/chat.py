"""The one place where prompts become model input text (chat templates included)."""

from __future__ import annotations

from typing import Any

from mlbench.errors import MlbenchError
from mlbench.schema import Prompt


def render_prompt(tokenizer: Any, prompt: Prompt) -> str:
    """Plain text as is; chat turns through the tokenizer's chat template, ending with an
    open assistant turn (the generation prompt)."""
    if prompt.text is not None:
        return prompt.text
    if not getattr(tokenizer, "chat_template", None):
        raise MlbenchError("the model's tokenizer has no chat template; run with --no-chat-template")
    messages = [{"role": m.role, "content": m.content} for m in prompt.messages or ()]
    return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)


def encode(tokenizer: Any, text: str) -> list[int]:
    """Token ids with the tokenizer's own special-token default (as lm-eval 0.4.13 does),
    except that a text already starting with BOS (a rendered chat template) gets no second one."""
    bos = getattr(tokenizer, "bos_token", None)
    if bos and text.startswith(bos):
        return tokenizer.encode(text, add_special_tokens=False)
    return tokenizer.encode(text)


def encode_pair(tokenizer: Any, context: str, continuation: str) -> tuple[list[int], list[int]]:
    """Token ids of a context and of the continuation to score after it, split as lm-eval
    splits them: the context encoded alone, the continuation = the tokens of
    context + continuation after the context's length. Every backend scores these ids."""
    # The context's trailing whitespace belongs to the continuation (lm-eval's rule).
    n_spaces = len(context) - len(context.rstrip())
    if n_spaces:
        context, continuation = context[:-n_spaces], context[-n_spaces:] + continuation
    if not context:
        prefix = tokenizer.bos_token_id
        prefix = tokenizer.eos_token_id if prefix is None else prefix
        return [prefix], encode(tokenizer, continuation)
    whole = encode(tokenizer, context + continuation)
    context_ids = encode(tokenizer, context)
    return context_ids, whole[len(context_ids) :]
