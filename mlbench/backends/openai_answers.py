"""Reading an OpenAI-compatible server's 200 answers: the texts of a completion, and the
log-probs of an option from an echoed prompt. An answer that holds less than was asked
(no text, log-probs for part of the prompt) is refused here, never scored from the part
it has: a server under load or a proxy in between can cut an answer short."""

from __future__ import annotations

from mlbench.records.jsontypes import JsonObject, JsonValue


class BadShape(Exception):
    """A 200 answer whose JSON is not shaped like a completion."""


class NoText(Exception):
    """A 200 completion whose choice holds no text (none, or null): not an empty answer."""


class NoPromptLogprobs(Exception):
    """The answer has no log-probs for the prompt at all: the server does not do echo with
    logprobs, so no request of this kind can succeed."""


class PartialLogprobs(Exception):
    """The answer has log-probs for part of the option only: this request fails (its sample
    is recorded as failed and retried by --resume); the others may still be whole."""


def completion_choices(answer: JsonObject) -> tuple[list[tuple[str, JsonValue]], int]:
    """(text, finish_reason) of each choice in index order, and completion tokens per choice."""
    choices = answer.get("choices")
    if choices is None:
        choices = []
    objects = [c for c in choices if isinstance(c, dict)] if isinstance(choices, list) else []
    if not isinstance(choices, list) or len(objects) != len(choices):
        raise BadShape(f"choices is {short(choices)}, not a list of objects")
    texts: list[tuple[str, JsonValue]] = []
    for choice in sorted(objects, key=_index):
        message = choice.get("message")
        if "message" in choice and not isinstance(message, dict):
            raise BadShape(f"a choice's message is {short(message)}, not an object")
        holder: JsonObject
        if isinstance(message, dict):
            holder, key = message, "content"
        else:
            holder, key = choice, "text"
        text = holder.get(key)
        if text is None:
            # No text at all is no answer: an empty one made up here would be scored as one.
            field = "message.content" if holder is message else "text"
            raise NoText(f"choice {choice.get('index', 0)}'s {field} is {'null' if key in holder else 'missing'}")
        if not isinstance(text, str):
            raise BadShape(f"a choice's text is {short(text)}, not a string")
        texts.append((text, choice.get("finish_reason")))
    usage = answer.get("usage") or {}
    tokens = usage.get("completion_tokens") if isinstance(usage, dict) else None
    n_tokens = tokens // max(1, len(texts)) if isinstance(tokens, int) else 0
    return texts, n_tokens


def _index(choice: JsonObject) -> int:
    """A choice's place among the choices (0 where the server gives none, or no number)."""
    index = choice.get("index", 0)
    return index if isinstance(index, int) else 0


def option_logprob(answer: JsonObject, n_context: int, n_option: int, generated: int) -> float:
    """The summed log-prob of the option's tokens (the last ``n_option`` of the prompt) in an
    echo answer to a prompt of ``n_context + n_option`` tokens with ``generated`` new tokens.

    Raises NoPromptLogprobs when the answer has none for the prompt, PartialLogprobs when
    it has fewer than the option needs or values that are no log-probs."""
    values = _token_logprobs(answer)
    n_prompt = n_context + n_option
    if values is None:
        raise NoPromptLogprobs("the answer's token_logprobs is null")
    if not isinstance(values, list):
        raise PartialLogprobs(f"the server gave token_logprobs {short(values)}, not a list")
    if len(values) <= generated or all(v is None for v in values[1:n_prompt]):
        # Only the generated tokens', or nulls for the whole prompt (the first token never
        # has one): the server ignored echo, as a server that does not support it does.
        raise NoPromptLogprobs(f"the answer has log-probs for {len(values)} tokens, none for the prompt")
    if len(values) < n_prompt:
        raise PartialLogprobs(f"the server gave log-probs for only {len(values)} of the {n_prompt} prompt tokens")
    scored = values[n_context:n_prompt]
    strange = [v for v in scored if v is not None and (isinstance(v, bool) or not isinstance(v, int | float))]
    if strange:
        raise PartialLogprobs(f"the server gave a log-prob that is not a number: {short(strange[0])}")
    missing = sum(v is None for v in scored)
    if missing:
        raise PartialLogprobs(f"the server gave no log-prob for {missing} of the option's {n_option} tokens")
    return float(sum(v for v in scored if isinstance(v, int | float)))  # each one is: checked above


def _token_logprobs(answer: JsonObject) -> JsonValue:
    """``answer["choices"][0]["logprobs"]["token_logprobs"]``; NoPromptLogprobs where the
    answer has no such value (a step missing, or not a list or an object)."""
    choices = answer.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    logprobs = first.get("logprobs") if isinstance(first, dict) else None
    if not isinstance(logprobs, dict) or "token_logprobs" not in logprobs:
        raise NoPromptLogprobs("the answer has no log-prob for every prompt token")
    return logprobs["token_logprobs"]


def short(value: object) -> str:
    return repr(value)[:60]
