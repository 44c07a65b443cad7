"""poolgen: lottery prize pools from published prize structures, shuffled, laid out and signed."""

__version__ = "0.1.0"
