"""Сборка заказов: порядок обхода ячеек склада."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    aisle: int
    rack: int
    level: int


class PickList:
    """Лист сборки для кладовщика: какие товары и из каких ячеек взять."""

    def __init__(self, order_id: str):
        self.order_id = order_id
        self.items: list[tuple[str, Cell, int]] = []

    def add(self, sku: str, cell: Cell, qty: int) -> None:
        self.items.append((sku, cell, qty))

    def as_text(self) -> str:
        rows = [f"Заказ {self.order_id}"]
        for sku, cell, qty in self.items:
            rows.append(f"  ряд {cell.aisle}, стеллаж {cell.rack}, ярус {cell.level}: {sku} × {qty}")
        return "\n".join(rows)


def build_pick_route(cells: list[Cell]) -> list[Cell]:
    """Упорядочивает ячейки так, чтобы сборщик прошёл склад «змейкой».

    Чётные ряды проходятся по возрастанию номера стеллажа, нечётные —
    по убыванию; так сборщику не приходится возвращаться назад.
    """
    by_aisle: dict[int, list[Cell]] = {}
    for c in cells:
        by_aisle.setdefault(c.aisle, []).append(c)
    route = []
    for aisle in sorted(by_aisle):
        row = sorted(by_aisle[aisle], key=lambda c: (c.rack, c.level))
        if aisle % 2:
            row.reverse()
        route.extend(row)
    return route


def route_length(route: list[Cell], aisle_width: float = 3.0, rack_width: float = 1.2) -> float:
    total = 0.0
    for a, b in zip(route, route[1:]):
        total += abs(a.aisle - b.aisle) * aisle_width + abs(a.rack - b.rack) * rack_width
    return total
