"""LLM-as-a-judge: yes/no judges (truth, info, verify, claim_support) scored from log-probs,
and prompted judges (relevance, correctness, claims) whose written verdicts are parsed.
Each judge is a prompt file under ``prompts/judges/`` run on any backend."""

from mlbench.judges.judge import Judge
from mlbench.judges.spec import JudgeSpec, judge_kinds, load_spec

__all__ = ["Judge", "JudgeSpec", "judge_kinds", "load_spec"]
