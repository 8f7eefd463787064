"""Правила скидок для заказов интернет-магазина."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

# Пороги суммы покупок за год и соответствующий процент скидки.
LOYALTY_LEVELS = [
    (Decimal("300000"), Decimal("0.10")),
    (Decimal("100000"), Decimal("0.07")),
    (Decimal("30000"), Decimal("0.03")),
]


@dataclass
class DiscountRule:
    """Одно правило скидки: на категорию товара или на весь заказ.

    Правило действует только в указанный период и может быть
    ограничено минимальной суммой заказа.
    """

    code: str
    percent: Decimal
    category: str | None = None
    min_total: Decimal = Decimal("0")
    valid_from: date | None = None
    valid_to: date | None = None

    def is_active(self, today: date) -> bool:
        """Проверяет, попадает ли дата в срок действия правила."""
        if self.valid_from and today < self.valid_from:
            return False
        if self.valid_to and today > self.valid_to:
            return False
        return True


def calc_loyalty_discount(yearly_spent: Decimal, order_total: Decimal) -> Decimal:
    """Возвращает сумму скидки для постоянного покупателя.

    Процент зависит от того, сколько клиент потратил за последние
    12 месяцев; берётся самый высокий уровень, которого он достиг.
    """
    for threshold, percent in LOYALTY_LEVELS:
        if yearly_spent >= threshold:
            return (order_total * percent).quantize(Decimal("0.01"))
    return Decimal("0.00")


def apply_promo_code(order, code: str, rules: list[DiscountRule], today: date) -> Decimal:
    """Применяет промокод к заказу и возвращает размер скидки.

    Если код не найден, просрочен или сумма заказа меньше минимальной,
    скидка равна нулю. Скидка на категорию считается только по
    позициям этой категории.
    """
    rule = next((r for r in rules if r.code.upper() == code.strip().upper()), None)
    if rule is None or not rule.is_active(today):
        return Decimal("0")
    if order.total < rule.min_total:
        return Decimal("0")
    if rule.category:
        base = sum((line.amount for line in order.lines if line.category == rule.category), Decimal("0"))
    else:
        base = order.total
    return (base * rule.percent / 100).quantize(Decimal("0.01"))


def best_discount(*candidates: Decimal) -> Decimal:
    # скидки не суммируются — выбираем самую выгодную для клиента
    return max(candidates, default=Decimal("0"))
