"""The declarative engine: a benchmark file (``declared/*.toml``, or a user's
``--include``) read into a typed spec, its rows and prompt templates, and the Task it
makes. Not a benchmark itself: the registry skips it (``NOT_BENCHMARKS``)."""
