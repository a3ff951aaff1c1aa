"""`mlbench import lm-eval`: lm-eval sample logs read into ordinary mlbench runs."""
