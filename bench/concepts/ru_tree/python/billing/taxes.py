"""Налоги: НДС по категориям товаров и округление денежных сумм."""

from decimal import Decimal, ROUND_HALF_UP

# Ставки НДС по категориям товаров. Для неизвестных категорий берётся
# основная ставка.
VAT_RATES = {
    "goods": Decimal("0.20"),
    "food": Decimal("0.10"),
    "children": Decimal("0.10"),
    "books": Decimal("0.10"),
    "medical": Decimal("0.00"),
    "services": Decimal("0.20"),
}


def round_money(value: Decimal) -> Decimal:
    """Округляет сумму до копеек по бухгалтерскому правилу (половина вверх)."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def compute_vat(amount: Decimal, category: str, included: bool = True) -> Decimal:
    """Считает НДС для суммы.

    Если included=True, налог уже входит в сумму и выделяется из неё,
    иначе начисляется сверху.
    """
    rate = VAT_RATES.get(category, VAT_RATES["goods"])
    if included:
        return round_money(amount * rate / (1 + rate))
    return round_money(amount * rate)
