"""Работа со штрихкодами EAN-13."""

# Префиксы GS1, выделенные для России.
RUSSIAN_GS1_PREFIXES = range(460, 470)


def ean13_check_digit(first12: str) -> int:
    """Вычисляет контрольную цифру для первых 12 цифр кода.

    Цифры на нечётных позициях берутся с весом 1, на чётных — с весом 3.
    """
    if len(first12) != 12 or not first12.isdigit():
        raise ValueError("нужно ровно 12 цифр")
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return (10 - total % 10) % 10


def validate_barcode(code: str) -> bool:
    code = code.strip()
    if len(code) != 13 or not code.isdigit():
        return False
    return ean13_check_digit(code[:12]) == int(code[12])


def is_domestic(code: str) -> bool:
    """Проверяет, что товар зарегистрирован российским участником GS1."""
    return int(code[:3]) in RUSSIAN_GS1_PREFIXES
