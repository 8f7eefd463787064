"""Пересчёт валют по курсам ЦБ."""

import time
from decimal import Decimal


class ExchangeRateCache:
    """Хранит курсы валют в памяти и обновляет их не чаще раза в час.

    Загрузчик курсов передаётся снаружи, чтобы в тестах можно было
    подставить заглушку вместо обращения к сайту ЦБ.
    """

    def __init__(self, loader, ttl_seconds: int = 3600):
        self._loader = loader
        self._ttl = ttl_seconds
        self._rates: dict[str, Decimal] = {}
        self._loaded_at = 0.0

    def get(self, code: str) -> Decimal:
        if time.monotonic() - self._loaded_at > self._ttl:
            self._rates = self._loader()
            self._loaded_at = time.monotonic()
        return self._rates[code]


def convert_currency(amount: Decimal, src: str, dst: str, rates: ExchangeRateCache) -> Decimal:
    """Переводит сумму из одной валюты в другую через рубль.

    Курсы хранятся как «рублей за единицу валюты», поэтому сначала
    переводим в рубли, затем в целевую валюту.
    """
    if src == dst:
        return amount
    rub = amount if src == "RUB" else amount * rates.get(src)
    result = rub if dst == "RUB" else rub / rates.get(dst)
    return result.quantize(Decimal("0.01"))
