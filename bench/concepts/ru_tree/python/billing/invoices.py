"""Формирование счетов на оплату."""

from datetime import date
from decimal import Decimal

from .taxes import compute_vat, round_money


def render_invoice_number(seq: int, issued: date, branch: str = "MSK") -> str:
    """Собирает человекочитаемый номер счёта вида MSK-2024-03-000123."""
    return f"{branch}-{issued:%Y-%m}-{seq:06d}"


class InvoiceBuilder:
    """Пошагово собирает счёт: строки, налоги, итоговые суммы.

    Пример:
        builder = InvoiceBuilder(customer)
        builder.add_line("Доставка", 1, Decimal("500"), "services")
        invoice = builder.build(number)
    """

    def __init__(self, customer):
        self.customer = customer
        self.lines = []

    def add_line(self, title: str, qty: int, price: Decimal, category: str = "goods"):
        """Добавляет позицию в счёт. Нулевое количество игнорируется."""
        if qty <= 0:
            return self
        amount = round_money(price * qty)
        self.lines.append({
            "title": title,
            "qty": qty,
            "price": price,
            "amount": amount,
            "vat": compute_vat(amount, category),
        })
        return self

    def build(self, number: str) -> dict:
        total = sum((l["amount"] for l in self.lines), Decimal("0"))
        vat = sum((l["vat"] for l in self.lines), Decimal("0"))
        return {
            "number": number,
            "customer": self.customer,
            "lines": list(self.lines),
            "total": total,
            "vat": vat,
        }


def split_invoice_by_vat(invoice: dict) -> dict:
    """Группирует строки счёта по ставке НДС.

    Нужно для печатной формы, где каждая ставка идёт отдельным блоком.
    """
    groups: dict = {}
    for line in invoice["lines"]:
        rate = (line["vat"] / line["amount"]).quantize(Decimal("0.01")) if line["amount"] else Decimal("0")
        groups.setdefault(rate, []).append(line)
    return groups
