"""Model backends. Only this package imports torch/transformers/vllm, and only lazily."""
