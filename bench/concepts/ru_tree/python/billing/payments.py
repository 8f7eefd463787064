"""Сверка входящих платежей со счетами."""

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

_STATEMENT_RE = re.compile(
    r"^(?P<date>\d{2}\.\d{2}\.\d{4});(?P<amount>[\d\s]+,\d{2});(?P<payer>[^;]*);(?P<purpose>.*)$"
)

# Сколько дней даётся на оплату счёта по умолчанию.
PAYMENT_TERM_DAYS = 14


@dataclass
class BankRecord:
    paid_on: date
    amount: Decimal
    payer: str
    purpose: str


def parse_bank_statement(line: str) -> BankRecord | None:
    """Разбирает одну строку банковской выписки в формате CSV с «;».

    Сумма приходит с пробелами между разрядами и запятой в качестве
    десятичного разделителя. Некорректные строки пропускаются (None).
    """
    m = _STATEMENT_RE.match(line.strip())
    if not m:
        return None
    d, mth, y = m["date"].split(".")
    amount = Decimal(m["amount"].replace(" ", "").replace(",", "."))
    return BankRecord(date(int(y), int(mth), int(d)), amount, m["payer"].strip(), m["purpose"].strip())


def is_overdue(issued: date, paid: bool, today: date, term_days: int = PAYMENT_TERM_DAYS) -> bool:
    return not paid and today > issued + timedelta(days=term_days)


class PaymentReconciler:
    """Сопоставляет платежи из выписки с неоплаченными счетами.

    Сначала ищется номер счёта в назначении платежа, затем — точное
    совпадение суммы у того же плательщика. Всё, что не удалось
    сопоставить, попадает в список для ручной проверки.
    """

    _NUMBER_RE = re.compile(r"[A-Z]{3}-\d{4}-\d{2}-\d{6}")

    def __init__(self, open_invoices):
        self.open_invoices = {inv["number"]: inv for inv in open_invoices}
        self.unmatched = []

    def match(self, record: BankRecord):
        found = self._NUMBER_RE.search(record.purpose)
        if found and found.group() in self.open_invoices:
            return self.open_invoices.pop(found.group())
        for number, inv in list(self.open_invoices.items()):
            if inv["total"] == record.amount and inv["customer"] == record.payer:
                return self.open_invoices.pop(number)
        self.unmatched.append(record)
        return None
