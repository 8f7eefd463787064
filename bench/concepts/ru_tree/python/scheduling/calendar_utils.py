"""Производственный календарь: рабочие и нерабочие дни."""

from datetime import date, timedelta

# Официальные нерабочие праздничные дни (без переносов).
PUBLIC_HOLIDAYS = {
    (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (1, 8),
    (2, 23), (3, 8), (5, 1), (5, 9), (6, 12), (11, 4),
}


def is_business_day(d: date, extra_days_off: set[date] = frozenset()) -> bool:
    """Рабочий ли день: не суббота, не воскресенье и не праздник."""
    if d.weekday() >= 5:
        return False
    if (d.month, d.day) in PUBLIC_HOLIDAYS:
        return False
    return d not in extra_days_off


def add_business_days(start: date, n: int) -> date:
    """Сдвигает дату на n рабочих дней вперёд, пропуская выходные и праздники.

    Используется для расчёта срока доставки и срока оплаты счёта.
    """
    d = start
    while n > 0:
        d += timedelta(days=1)
        if is_business_day(d):
            n -= 1
    return d


def business_days_between(a: date, b: date) -> int:
    count = 0
    d = a
    while d < b:
        d += timedelta(days=1)
        if is_business_day(d):
            count += 1
    return count
