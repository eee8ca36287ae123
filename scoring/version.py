"""The scorer's version: recorded in every summary, so a result says which scorer made it."""

__version__ = "1.0.0"
