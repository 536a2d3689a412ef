"""Reading a number of seconds from the command line."""

from __future__ import annotations

import argparse
import math


def seconds(text: str) -> float:
    """``text`` as a finite number of seconds, for argparse's ``type=``.

    ``float()`` alone takes ``nan`` and ``inf``: nan passes every comparison (a timer of
    nan is not refused as negative, then its countdown crashes the screen) and infinity
    waits for ever, so neither is a duration. The range (more than 0, 0 or more) is for
    each option to check.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number; give seconds, e.g. 30 or 0.5") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a finite number; give seconds, e.g. 30 or 0.5")
    return value
