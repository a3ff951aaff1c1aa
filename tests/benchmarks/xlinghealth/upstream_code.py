# ruff: noqa: E501  (the files hold long lines, as the authors' do)
"""XLingHealth's upstream code files for the fixture tree: ``DIR/upstream/xlinghealth/<path>``.

mlbench reads XLingHealth's prompts out of the authors' Python files and prompt templates
(claws-lab/XLingEval). These fixture files have the shapes mlbench reads (the same
function names, parameters, ``if``/``elif`` chains, f-strings, chat-message dicts and
keyword arguments) around text written for these tests, so the tests can check that the
prompt mlbench sends holds a file's text character for character without copying the
authors' words. Each text says where it comes from ("FX-…"), so a mix-up shows."""

from __future__ import annotations

import json
from pathlib import Path

LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "zh": "Chinese", "hi": "Hindi"}

FILES: dict[str, str] = {
    "correctness/correctness_get_gpt_answer.py": """import time


def get_eval(data_df, lang, open_ai_object_list, constants):
    answers = []
    for idx, row in data_df.iterrows():
        message_list=[{'role': 'system', 'content': f'FX-answer system: reply about health in {lang}, prose only, in {lang}.'}]
        messages = message_list.copy()
        messages.append({'role': 'user', 'content': row['question']})
        answers.append(messages)
    return answers
""",
    "correctness/correctness_answer_evaluation.py": """def prompt_type(question, answer_1, answer_2, lang):
    case_1_string = f"FX-case neither similar nor contradictory"
    case_2_string = f"FX-case contradictory"
    case_3_string = f"FX-case more comprehensive"
    case_4_string = f"FX-case less comprehensive"
    rule_string = f"FX-rule: contradiction means a wrong answer."
    prompt = f"FX-judge ({lang})\\nQ: {question}\\nA1: {answer_1}\\nA2: {answer_2}\\n{rule_string}\\n1) {case_1_string}\\n2) {case_2_string}\\n3) {case_3_string}\\n4) {case_4_string}\\nFX-end"
    return prompt


def get_eval(data_df, lang, open_ai_object_list, constants):
    for idx, row in data_df.iterrows():
        message_list = [{"role": "system", "content": "FX-judge system message."}]
    return message_list
""",
    "correctness/MedAlpaca/correctness_medalpaca_get_answers.py": """def accuracy_medalpaca(data_df, model, batch_size, target_language):
    responses = model.batch_inference(
        instruction=f"FX-medalpaca answer in {target_language}, prose.",
        inputs=data_df,
        output="FX-Output:",
        verbose=False,
    )
    return responses
""",
    "consistency/prompts.py": """def prompt_consistency(question: str, language: str, use_bullet_point: bool) -> str:

    if language == "Chinese":
        infix_bullet_point = "FX-zh-bullets" if use_bullet_point else ""
        prompt = f"FX-zh-doctor{infix_bullet_point}\\nFX-zh-Q: ```{question}```"

    elif language == "English":
        infix_bullet_point = "FX-en-bullets" if use_bullet_point else ""
        prompt = f"FX-en-doctor. {infix_bullet_point}\\nQuestion: ```{question}```"

    elif language == "Hindi":
        infix_bullet_point = f"FX-hi-bullets" if use_bullet_point else ""
        prompt = f"FX-hi-doctor {infix_bullet_point}\\nFX-hi-Q: ```{question}```"

    elif language == "Spanish":
        infix_bullet_point = "FX-es-bullets" if use_bullet_point else ""
        prompt = f"FX-es-doctor. {infix_bullet_point}\\nPregunta: ```{question}``."

    else:
        raise NotImplementedError

    return prompt
""",
    "consistency/consistency_get_medalpaca_answer.py": """def run_consistency_medalpaca():
    for idx_row in range(3):
        responses = model.batch_inference(
            instruction=f"FX-medalpaca consistency in {args.target_language}.",
            inputs=input_questions,
            output="FX-consistency output:",
            verbose=True,
        )
""",
    "verifiability/prompts.py": """def prompt_verifiability(question: str, response: str, language:str):

    if language == "Chinese":
        prompt = f"FX-zh-verify ```{question}``` / ```{response}```"

    elif language == "Hindi":
        prompt = f"FX-hi-verify\\n```{question}```\\n```\\n{response}\\n```"

    elif language == "English":
        prompt = (f"FX-en-verify: one English word, Yes or No. "
                  f"\\nQuestion: \\n```\\n{question}\\n```\\nResponse: ```\\n{response}\\n```")

    elif language == "Spanish":
        prompt = f"FX-es-verify \\nPregunta: \\n```\\n{question}\\n```\\nRespuesta: ```\\n{response}\\n```"

    else:
        raise NotImplementedError
    return prompt
""",
    "verifiability/verifiability_get_answer.py": """def run_verifiability(temperature: float, dataset_name: str, target_language: str):

    def format_question(question, answer):
        return f"FX-Q: {question}\\nFX-R: {answer}"

    for idx_row in range(3):
        responses = model.batch_inference(
            instruction=f"FX-medalpaca verify: Yes or No.",
            inputs=batch,
            output="FX-verify output:",
            verbose=True,
        )
""",
    "utils/utils_chatgpt.py": """def get_response(prompt: str, temperature, deployment_id=None, task=const.MEDICAL) -> str:
    if task in [const.MEDICAL]:
        message_system = {
            'role': 'system',
            'content': 'FX-medical system message.'
        }
    elif task in [const.TRANSLATE, const.PARAPHRASE]:
        message_system = {
            'role': 'system',
            'content': 'FX-translator system message.'
        }
    else:
        raise NotImplementedError
    return message_system
""",
}

TEMPLATES = {
    "correctness/MedAlpaca/medalpaca_accuracy_prompt.json": {
        "description": "FX accuracy template",
        "primer": "FX-primer: answer the question.",
        "instruction": "\n\n### FX-Instruction:\n",
        "input": "\n\n### FX-Input:\n",
        "output": "\n\n### FX-Response:\n",
        "response_split": "### FX-Response:",
    },
    "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json": {
        "description": "FX consistency template",
        "primer": "FX-primer in LANGUAGE_NAME: answer the question",
        "instruction": "\n\n### FX-Instruction:\n",
        "input": "\n\n### FX-Input:\n",
        "output": "\n\n### FX-Response:\n",
        "response_split": "### FX-Response:",
    },
}


def write_upstream_code(root: Path) -> Path:
    """The files under ``root/upstream/xlinghealth/``; returns that folder."""
    folder = root / "upstream" / "xlinghealth"
    for path, text in FILES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    for path, template in TEMPLATES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(json.dumps(template, indent=4), encoding="utf-8")
    return folder
