"""Планирование смен сотрудников склада."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

# Максимальная продолжительность рабочей недели по ТК РФ, часов.
MAX_WEEK_HOURS = 40


@dataclass
class Employee:
    name: str
    skills: set[str]
    days_off: set[date]


class ShiftPlanner:
    """Распределяет сотрудников по сменам с учётом навыков и выходных.

    Алгоритм жадный: на каждую смену ставим того, у кого сейчас меньше
    всего часов, чтобы нагрузка была равномерной.
    """

    def __init__(self, employees: list[Employee], shift_hours: int = 12):
        self.employees = employees
        self.shift_hours = shift_hours
        self.hours = defaultdict(int)

    def assign(self, day: date, needed: dict[str, int]) -> dict[str, list[str]]:
        """Назначает людей на смену в указанный день.

        needed — сколько человек с каким навыком требуется, например
        {"погрузчик": 2, "кладовщик": 4}.
        """
        plan: dict[str, list[str]] = {}
        busy: set[str] = set()
        for skill, count in needed.items():
            candidates = [e for e in self.employees
                          if skill in e.skills and day not in e.days_off and e.name not in busy]
            candidates.sort(key=lambda e: self.hours[e.name])
            chosen = candidates[:count]
            for e in chosen:
                busy.add(e.name)
                self.hours[e.name] += self.shift_hours
            plan[skill] = [e.name for e in chosen]
        return plan


def count_overtime(week_hours: dict[str, int]) -> dict[str, int]:
    """Возвращает переработку каждого сотрудника сверх нормы недели."""
    return {name: h - MAX_WEEK_HOURS for name, h in week_hours.items() if h > MAX_WEEK_HOURS}
