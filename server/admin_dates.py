"""When something happened, as the admin screens show it: short, in UTC, in the order
the admin's language writes a date."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable


def short_when(when: datetime, t: Callable[..., str]) -> str:
    """Day, month and time in UTC, in the order the language of ``t`` writes them: "12-08"
    is the 12th of August to a French admin, who reads "08/12"."""
    utc = when.astimezone(timezone.utc)
    return t("admin.when", day=f"{utc.day:02d}", month=f"{utc.month:02d}",
             time=utc.strftime("%H:%M"))
