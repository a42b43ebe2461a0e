"""Pyramide: Pyramid solitaire for the terminal, for scripts and for bots."""

__version__ = "0.1.0"
