"""Diamant, the push-your-luck cave game, in the terminal and over SSH."""

__version__ = "0.1.0"
