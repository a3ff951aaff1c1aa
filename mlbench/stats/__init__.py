"""Statistics over per-question values: intervals, paired tests, agreement."""
