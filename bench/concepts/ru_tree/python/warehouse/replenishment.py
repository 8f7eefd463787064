"""Пополнение запасов: когда и сколько заказывать у поставщика."""

import math


def reorder_point(avg_daily_sales: float, lead_time_days: int, safety_stock: int) -> int:
    """Уровень остатка, при котором пора оформлять новую закупку.

    Считается как ожидаемые продажи за время поставки плюс страховой запас.
    """
    return math.ceil(avg_daily_sales * lead_time_days) + safety_stock


def safety_stock(daily_std: float, lead_time_days: int, z: float = 1.65) -> int:
    # z = 1.65 соответствует уровню сервиса около 95 %
    return math.ceil(z * daily_std * math.sqrt(lead_time_days))


def economic_order_qty(annual_demand: float, order_cost: float, holding_cost: float) -> int:
    """Оптимальный размер партии по формуле Уилсона."""
    return math.ceil(math.sqrt(2 * annual_demand * order_cost / holding_cost))


def suggest_purchase_orders(stock: dict[str, int], params: dict[str, dict]) -> dict[str, int]:
    """Формирует черновик закупки по всем товарам, которые опустились ниже точки заказа.

    params[sku] содержит среднесуточные продажи, срок поставки, страховой
    запас и кратность упаковки у поставщика.
    """
    result = {}
    for sku, p in params.items():
        rop = reorder_point(p["avg_daily"], p["lead_days"], p["safety"])
        if stock.get(sku, 0) <= rop:
            need = rop * 2 - stock.get(sku, 0)
            pack = p.get("pack", 1)
            result[sku] = math.ceil(need / pack) * pack
    return result
