"""Загрузка настроек приложения."""

import json
import os

# Таймаут внешних HTTP-запросов по умолчанию, секунд.
DEFAULT_HTTP_TIMEOUT = 15


def load_settings(path: str) -> dict:
    """Читает настройки из JSON-файла и накладывает поверх переменные окружения.

    Переменная окружения APP_DB_URL переопределяет ключ db_url и т. д.
    """
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    for key in list(data):
        env = os.environ.get("APP_" + key.upper())
        if env is not None:
            data[key] = env
    data.setdefault("http_timeout", DEFAULT_HTTP_TIMEOUT)
    return data


def mask_secret(value: str) -> str:
    # для логов: показываем только последние 4 символа
    return "*" * max(len(value) - 4, 0) + value[-4:]
