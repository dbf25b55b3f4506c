"""Numbers and dates as the language in use writes them (Babel's CLDR data): 1,234.5 / 1.234,5."""

from __future__ import annotations

import datetime

from babel import dates, numbers

from .catalogue import current


def number(value: float, digits: int | None = None) -> str:
    """`value` with the language's decimal sign and grouping; `digits` after the sign if given."""
    if digits is not None:
        return numbers.format_decimal(value, format="#,##0." + "0" * digits if digits else "#,##0",
                                      locale=current())
    return numbers.format_decimal(value, locale=current())


def percent(fraction: float) -> str:
    """0.625 -> `62 %` (en `62%`), as the language writes a percentage."""
    return numbers.format_percent(fraction, locale=current())


def date(moment: datetime.date | datetime.datetime) -> str:
    """A day, in the language's medium form: `1 Dec 2026`, `01.12.2026`, `1 dec. 2026`."""
    return dates.format_date(moment, format="medium", locale=current())
