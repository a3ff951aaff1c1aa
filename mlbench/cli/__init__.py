"""The ``mlbench`` command: one module per command (run, judge, report, agree, surface,
tasks, backends, data, import), the options they share declared once (options.py), and
settings.py, which turns parsed options into the engine's typed run plan."""
