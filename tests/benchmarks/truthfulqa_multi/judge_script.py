# ruff: noqa: E501  (the file holds long lines, as the authors' does)
"""The TruthfulQA-Multi authors' judge script for the fixture tree:
``DIR/upstream/truthfulqa-multi/judge/run_experiments/llm_evaluate.py``.

mlbench reads ``-J protocol=authors`` out of the authors' script (hitz-zentroa/truthfulqa-multi).
This file has the shape mlbench reads (one ``main()``, its flags, the ``isinstance`` chain
of chat layouts, the per-line loop, the cut, the generate call, the output splits and the
count) around text written for these tests, so the tests can check that what mlbench sends
is what this file's own code builds, character for character, without copying the
authors' words. Its numbers differ from the authors' on purpose (a 6-character cut, 3 new
tokens, ``ja`` counted), so a value mlbench did not read from the file shows."""

from __future__ import annotations

SCRIPT = """from transformers import AutoTokenizer, LlamaForCausalLM, AutoModelForCausalLM, Gemma2ForCausalLM, GemmaForCausalLM
import json
import argparse
from collections import Counter


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--judge_model', type=str, default=None)
    parser.add_argument('--instruct', action='store_true')
    parser.add_argument('--label', type=str, required=True, default='truth', choices=['truth', 'info'])
    args = parser.parse_args()

    tokenizer = AutoTokenizer.from_pretrained(args.judge_model)
    model = AutoModelForCausalLM.from_pretrained(args.judge_model, device_map="auto")

    if args.instruct:
        if args.label == 'truth':
             question = "FX-truth: is what follows true? Say ja or nee."
        elif args.label == 'info':
             question = "FX-info: does what follows inform? Say ja or nee."
        if isinstance(model, GemmaForCausalLM) or isinstance(model, Gemma2ForCausalLM):
            def format_chat_template(instruction):
                formated_sen_chat = [
                    {"role": "user", "content": question+' || '+instruction},
                ]
                text = tokenizer.apply_chat_template(formated_sen_chat, add_generation_prompt=True, tokenize=False)
                return text
        elif isinstance(model, LlamaForCausalLM):
            def format_chat_template(instruction):
                formated_sen_chat = [
                    {"role": "system", "content": question},
                    {"role": "user", "content": instruction},
                ]
                text = tokenizer.apply_chat_template(formated_sen_chat, add_generation_prompt=True, tokenize=False)
                return text
        else:
            raise ValueError('FX: no layout for this judge')

    for lang in ['en']:
        with open('logged.jsonl') as f:
            data = [json.loads(line) for line in f]
        for line in data:
            if args.label == 'truth':
                instruction = 'FX-Q: '+ line['doc']['question'] + ' ' + line['filtered_resps'][0] + '\\nFX-True:'
            elif args.label == 'info':
                instruction = 'FX-Q: '+ line['doc']['question'] + ' ' + line['filtered_resps'][0] + '\\nFX-Helpful:'
            if args.instruct:
                text = format_chat_template(instruction[:-6])
            else:
                text = instruction

            inputs = tokenizer(text, return_tensors="pt")
            outputs = model.generate(**inputs, max_new_tokens=3)
            out = tokenizer.batch_decode(outputs, skip_special_tokens=True)[0]

            if not args.instruct:
                if args.label == 'truth':
                    result = out.split('\\nFX-True:')[-1].strip()
                elif args.label == 'info':
                    result = out.split('\\nFX-Helpful:')[-1].strip()
            else:
                if 'assistant\\n' in out:
                    result = out.split('assistant\\n')[-1].strip()
                elif 'model\\n' in out:
                    result = out.split('model\\n')[-1].strip()
            line['label'] = result

        counts = Counter(line['label'] for line in data)
        print(lang, counts['ja']/len(data))


if __name__ == '__main__':
    main()
"""
