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
