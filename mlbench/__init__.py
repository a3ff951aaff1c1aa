"""mlbench: how truthful are language models across languages?"""

__version__ = "0.1.0"
