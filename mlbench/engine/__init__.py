"""The run itself: the plan (plan.py), the pipeline that scores and writes samples,
the checks before and after it, the lock and failure records, progress, and the judging
stage that reads a finished run's answers."""
