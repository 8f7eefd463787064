"""Отправка уведомлений клиентам по электронной почте."""

import smtplib
import string
import time
from email.message import EmailMessage

TEMPLATES = {
    "order_shipped": "Здравствуйте, $name! Ваш заказ $order передан в доставку.",
    "invoice_overdue": "Счёт $invoice просрочен. Просим оплатить до $deadline.",
}


def render_template(name: str, **ctx) -> str:
    """Подставляет значения в шаблон письма; отсутствующие поля остаются как есть."""
    return string.Template(TEMPLATES[name]).safe_substitute(ctx)


def retry_with_backoff(fn, attempts: int = 5, base_delay: float = 0.5):
    """Вызывает функцию повторно при ошибке, каждый раз удваивая паузу.

    После последней неудачной попытки исключение пробрасывается наружу.
    """
    for i in range(attempts):
        try:
            return fn()
        except Exception:
            if i == attempts - 1:
                raise
            time.sleep(base_delay * (2 ** i))


class EmailNotifier:
    """Отправляет письма через SMTP-сервер компании."""

    def __init__(self, host: str, port: int, sender: str, password: str):
        self.host, self.port = host, port
        self.sender, self.password = sender, password

    def send(self, to: str, subject: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, to, subject
        msg.set_content(body)

        def _do():
            with smtplib.SMTP_SSL(self.host, self.port) as smtp:
                smtp.login(self.sender, self.password)
                smtp.send_message(msg)

        retry_with_backoff(_do)
