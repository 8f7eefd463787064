"""Учёт остатков на складе и резервирование товара под заказы."""

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime


class OutOfStockError(Exception):
    """Товара недостаточно для резервирования."""


@dataclass
class Movement:
    sku: str
    qty: int
    reason: str
    at: datetime = field(default_factory=datetime.now)


class StockLedger:
    """Журнал движений товара: приход, расход, списание.

    Остаток не хранится отдельно, а вычисляется как сумма всех движений,
    поэтому историю всегда можно восстановить.
    """

    def __init__(self):
        self._movements: list[Movement] = []
        self._reserved: dict[str, dict[str, int]] = defaultdict(dict)

    def record(self, sku: str, qty: int, reason: str) -> None:
        """Записывает движение. Положительное qty — приход, отрицательное — расход."""
        self._movements.append(Movement(sku, qty, reason))

    def on_hand(self, sku: str) -> int:
        return sum(m.qty for m in self._movements if m.sku == sku)

    def available(self, sku: str) -> int:
        """Свободный остаток: физический минус всё, что зарезервировано."""
        return self.on_hand(sku) - sum(self._reserved[sku].values())

    def reserve_items(self, order_lines: dict[str, int]) -> str:
        """Резервирует товары под заказ целиком или не резервирует ничего.

        Возвращает идентификатор резерва, по которому его потом можно снять.
        """
        for sku, qty in order_lines.items():
            if self.available(sku) < qty:
                raise OutOfStockError(sku)
        reservation_id = uuid.uuid4().hex
        for sku, qty in order_lines.items():
            self._reserved[sku][reservation_id] = qty
        return reservation_id

    def release_reservation(self, reservation_id: str) -> None:
        # снимаем резерв, например при отмене заказа
        for per_sku in self._reserved.values():
            per_sku.pop(reservation_id, None)

    def write_off(self, sku: str, qty: int, comment: str) -> None:
        """Списывает испорченный или утерянный товар."""
        self.record(sku, -abs(qty), f"списание: {comment}")
