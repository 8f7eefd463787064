package ru.shop.orders;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ru.shop.customers.LoyaltyProgram;

/**
 * Основные операции над заказами: оформление, смена статуса, отмена.
 */
public class OrderService {
    private final Map<String, Order> orders = new ConcurrentHashMap<>();
    private final OrderValidator validator = new OrderValidator();
    private final LoyaltyProgram loyalty;

    public OrderService(LoyaltyProgram loyalty) {
        this.loyalty = loyalty;
    }

    /**
     * Оформляет заказ: проверяет его и сохраняет.
     *
     * @throws IllegalArgumentException если заказ не прошёл проверку
     */
    public Order placeOrder(Order order) {
        List<String> problems = validator.validate(order);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        orders.put(order.getId(), order);
        return order;
    }

    /**
     * Переводит заказ в новый статус, если такой переход допустим.
     * При доставке покупателю начисляются бонусные баллы.
     */
    public void changeStatus(String orderId, OrderStatus next) {
        Order order = orders.get(orderId);
        if (order == null) {
            throw new IllegalArgumentException("заказ не найден: " + orderId);
        }
        if (!order.getStatus().canTransitionTo(next)) {
            throw new IllegalStateException(order.getStatus() + " -> " + next + " запрещено");
        }
        order.setStatus(next);
        if (next == OrderStatus.DELIVERED) {
            loyalty.addPoints(order.getCustomerId(), order.total());
        }
    }

    public void cancelOrder(String orderId) {
        changeStatus(orderId, OrderStatus.CANCELLED);
    }
}
