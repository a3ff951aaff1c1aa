"""Data sources → ``list[Sample]``. No model code here."""
