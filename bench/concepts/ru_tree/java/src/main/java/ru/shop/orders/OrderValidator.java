package ru.shop.orders;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Проверяет заказ перед сохранением и возвращает список найденных проблем.
 * Пустой список означает, что заказ корректен.
 */
public class OrderValidator {

    /** Максимальное количество одного товара в заказе (защита от опечаток). */
    public static final int MAX_QTY_PER_LINE = 999;

    public List<String> validate(Order order) {
        List<String> errors = new ArrayList<>();
        if (order.getLines().isEmpty()) {
            errors.add("в заказе нет ни одной позиции");
        }
        for (Order.OrderLine line : order.getLines()) {
            if (line.quantity() <= 0 || line.quantity() > MAX_QTY_PER_LINE) {
                errors.add("недопустимое количество для " + line.sku());
            }
            if (line.unitPrice().compareTo(BigDecimal.ZERO) < 0) {
                errors.add("отрицательная цена у " + line.sku());
            }
        }
        return errors;
    }
}
