package ru.shop.orders;

import java.util.EnumSet;
import java.util.Set;

/**
 * Статус заказа в жизненном цикле: от создания до вручения или отмены.
 */
public enum OrderStatus {
    NEW, PAID, ASSEMBLING, SHIPPED, DELIVERED, CANCELLED, RETURNED;

    /**
     * Проверяет, разрешён ли переход из текущего статуса в указанный.
     * Например, отменить можно только ещё не отгруженный заказ.
     */
    public boolean canTransitionTo(OrderStatus next) {
        return allowedNext().contains(next);
    }

    private Set<OrderStatus> allowedNext() {
        switch (this) {
            case NEW: return EnumSet.of(PAID, CANCELLED);
            case PAID: return EnumSet.of(ASSEMBLING, CANCELLED);
            case ASSEMBLING: return EnumSet.of(SHIPPED, CANCELLED);
            case SHIPPED: return EnumSet.of(DELIVERED, RETURNED);
            case DELIVERED: return EnumSet.of(RETURNED);
            default: return EnumSet.noneOf(OrderStatus.class);
        }
    }

    /** Является ли статус конечным — после него заказ больше не меняется. */
    public boolean isFinal() {
        return this == CANCELLED || this == RETURNED;
    }
}
