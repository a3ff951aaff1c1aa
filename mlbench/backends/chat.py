"""The one place where prompts become model input text (chat templates included)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from mlbench.backends.base import common_prefix_length
from mlbench.errors import MlbenchError
from mlbench.records import ChatMessage, GenerationRequest, LoglikelihoodRequest, Prompt


def render_prompt(tokenizer: Any, prompt: Prompt, *, open_turn: bool = True) -> str:
    """The model's input text: plain text as is, chat turns through the tokenizer's chat
    template, ending with an open assistant turn (the generation prompt) unless
    ``open_turn`` is False. A ``tokenizer_bos`` prompt that starts with BOS gets the
    tokenizer's BOS in front, as its own default would add it (``encode`` adds none to a
    text that starts with BOS)."""
    text = sent_prompt(tokenizer, prompt, open_turn=open_turn)[1]
    bos = getattr(tokenizer, "bos_token", None)
    if prompt.tokenizer_bos and bos and text.startswith(bos) and adds_bos(tokenizer):
        return bos + text
    return text


@functools.lru_cache(maxsize=8)
def adds_bos(tokenizer: Any) -> bool:
    """Whether the tokenizer's own default puts BOS in front of a text (Llama's and Gemma's
    do; many BPE tokenizers add nothing)."""
    plain = tokenizer("a", add_special_tokens=False)["input_ids"]
    ids = tokenizer("a")["input_ids"]
    return len(ids) > len(plain) and ids[0] == getattr(tokenizer, "bos_token_id", None)


def sent_prompt(tokenizer: Any, prompt: Prompt, *, open_turn: bool = True) -> tuple[Prompt, str]:
    """The prompt as the model gets it, and its text. Turns go through the chat template;
    a prompt with ``system_join`` whose system turn the template does not show (it
    refuses a system role, or leaves the turn out) has that turn joined to the first user
    turn instead, and that is the prompt sent."""
    if prompt.text is not None:
        return prompt, prompt.text
    if not getattr(tokenizer, "chat_template", None):
        raise MlbenchError("the model's tokenizer has no chat template; run with --no-chat-template")
    if prompt.system_join is not None and _has_system_turn(prompt):
        try:
            text = _apply(tokenizer, prompt, open_turn)
        except Exception:  # noqa: BLE001 - a template that refuses a system role raises its own error
            text = None
        system = next(m.content for m in prompt.messages or () if m.role == "system")
        if text is not None and system.strip() in text:
            return prompt, text
        prompt = _joined(prompt, prompt.system_join)
    return prompt, _apply(tokenizer, prompt, open_turn)


class RendersLocally:
    """A backend that renders chat turns itself, with its ``tokenizer``: what a sample
    records of its prompt comes from here (``engine/scoring.py``)."""

    tokenizer: Any

    def render(self, prompt: Prompt) -> tuple[Prompt, str]:
        """The prompt as the model gets it, and its text."""
        return sent_prompt(self.tokenizer, prompt)


def _has_system_turn(prompt: Prompt) -> bool:
    return any(m.role == "system" for m in prompt.messages or ())


def _joined(prompt: Prompt, between: str) -> Prompt:
    """The system turns joined to the first user turn (system first), as one user turn."""
    turns = list(prompt.messages or ())
    system = [m.content for m in turns if m.role == "system"]
    rest = [m for m in turns if m.role != "system"]
    first = next(i for i, m in enumerate(rest) if m.role == "user")
    rest[first] = ChatMessage("user", between.join([*system, rest[first].content]))
    return Prompt(messages=tuple(rest), shared_prefix=0)


def _apply(tokenizer: Any, prompt: Prompt, open_turn: bool) -> str:
    messages = [{"role": m.role, "content": m.content} for m in prompt.messages or ()]
    return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=open_turn)


def encode(tokenizer: Any, text: str) -> list[int]:
    """Token ids with the tokenizer's own special-token default (as lm-eval 0.4.13 does),
    except that a text already starting with BOS (a rendered chat template) gets no second one."""
    return encode_all(tokenizer, [text])[text]


def encode_all(tokenizer: Any, texts: list[str], known: dict[str, list[int]] | None = None) -> dict[str, list[int]]:
    """``encode`` of every text, the distinct ones in one batched tokenizer call per
    special-token setting (a fast tokenizer encodes a batch on all cores); the texts of
    ``known`` (encoded earlier by this function: ``TokenizeAhead``) are taken from it."""
    known = known or {}
    bos = getattr(tokenizer, "bos_token", None)
    distinct = [t for t in dict.fromkeys(texts) if t not in known]
    opened = [t for t in distinct if bos and t.startswith(bos)]
    plain = [t for t in distinct if not (bos and t.startswith(bos))]
    ids: dict[str, list[int]] = {t: known[t] for t in texts if t in known}
    for group, options in ((opened, {"add_special_tokens": False}), (plain, {})):
        if group:
            ids.update(zip(group, tokenizer(group, **options)["input_ids"]))
    return ids


def split_pair(context: str, continuation: str) -> tuple[str, str]:
    """The context's trailing whitespace belongs to the continuation (lm-eval's rule)."""
    n_spaces = len(context) - len(context.rstrip())
    if n_spaces:
        return context[:-n_spaces], context[-n_spaces:] + continuation
    return context, continuation


@dataclass(frozen=True)
class EncodedRequest:
    """A log-likelihood request as token ids, split as lm-eval splits it: the context
    encoded alone, the continuation = the tokens of context + continuation after the
    context's length. Every backend scores these ids."""

    context: list[int]
    continuation: list[int]
    # How many leading context tokens are the prompt's shared prefix (Prompt.shared_prefix):
    # those a backend may take from a cache of computed prefixes. 0: none.
    shared: int = 0


@dataclass(frozen=True)
class _ScoredTexts:
    """What ``encode_requests`` encodes for some requests: each request's (context,
    continuation) split, each prompt's shared-prefix text, and every text to encode."""

    pairs: list[tuple[str, str]]
    shared_texts: dict[Prompt, str]
    texts: list[str]


def _scored_texts(tokenizer: Any, requests: list[LoglikelihoodRequest]) -> _ScoredTexts:
    rendered, shared_texts = _prompt_texts(tokenizer, [r.prompt for r in requests])
    pairs = [split_pair(rendered[r.prompt], r.continuation) for r in requests]
    texts = (
        [text for context, continuation in pairs for text in (context, context + continuation) if context]
        + [continuation for context, continuation in pairs if not context]
        + list(shared_texts.values())
    )
    return _ScoredTexts(pairs, shared_texts, texts)


def encode_requests(
    tokenizer: Any, requests: list[LoglikelihoodRequest], known: dict[str, list[int]] | None = None
) -> list[EncodedRequest]:
    """Every request as token ids (see ``EncodedRequest``), each distinct text encoded
    once (or taken from ``known``: ``encode_all``); an empty continuation is an error."""
    scored = _scored_texts(tokenizer, requests)
    ids = encode_all(tokenizer, scored.texts, known)
    out = []
    for request, (context, continuation) in zip(requests, scored.pairs):
        if context:
            context_ids = ids[context]
            continuation_ids = ids[context + continuation][len(context_ids) :]
        else:  # nothing to condition on: the sequence starts from BOS (EOS when there is none)
            start = tokenizer.bos_token_id
            context_ids = [tokenizer.eos_token_id if start is None else start]
            continuation_ids = ids[continuation]
        if not continuation_ids:
            raise MlbenchError(f"empty continuation to score after {context[-40:]!r}")
        shared = 0
        if request.prompt in scored.shared_texts:
            # Tokens can merge across the boundary: only what both encodings agree on counts.
            shared = common_prefix_length([tuple(ids[scored.shared_texts[request.prompt]]), tuple(context_ids)])
        out.append(EncodedRequest(context_ids, continuation_ids, shared))
    return out


def _prompt_texts(tokenizer: Any, prompts: list[Prompt]) -> tuple[dict[Prompt, str], dict[Prompt, str]]:
    """Each distinct prompt's text and, for those with a shared prefix, the prefix's text."""
    rendered = {p: render_prompt(tokenizer, p) for p in dict.fromkeys(prompts)}
    shared_texts = {
        p: render_prompt(tokenizer, part, open_turn=False)
        for p in rendered
        if (part := p.shared_prefix_prompt()) is not None
    }
    return rendered, shared_texts


def encode_prompts(
    tokenizer: Any, prompts: list[Prompt], known: dict[str, list[int]] | None = None
) -> list[tuple[list[int], int]]:
    """Each prompt's token ids and how many of them are its shared prefix (as
    ``encode_requests`` counts them: tokens can merge across the boundary, so only what the
    prefix's and the prompt's encodings agree on is shared; 0: none). Every distinct text is
    encoded once, in one batch (or taken from ``known``)."""
    rendered, shared_texts = _prompt_texts(tokenizer, prompts)
    ids = encode_all(tokenizer, list(rendered.values()) + list(shared_texts.values()), known)
    out = []
    for prompt in prompts:
        tokens = ids[rendered[prompt]]
        shared = 0
        if prompt in shared_texts:  # tokens can merge across the boundary
            shared = common_prefix_length([tuple(ids[shared_texts[prompt]]), tuple(tokens)])
        out.append((tokens, shared))
    return out


def texts_to_encode(tokenizer: Any, requests: list[LoglikelihoodRequest | GenerationRequest]) -> list[str]:
    """Every text ``encode_requests`` and ``encode_prompts`` encode for ``requests``."""
    scored = [r for r in requests if isinstance(r, LoglikelihoodRequest)]
    prompts = [r.prompt for r in requests if isinstance(r, GenerationRequest)]
    rendered, shared_texts = _prompt_texts(tokenizer, prompts)
    texts = _scored_texts(tokenizer, scored).texts if scored else []
    return texts + list(rendered.values()) + list(shared_texts.values())
