package ru.shop.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Заказ покупателя со списком позиций и текущим статусом. */
public class Order {
    private final String id;
    private final String customerId;
    private final List<OrderLine> lines = new ArrayList<>();
    private OrderStatus status = OrderStatus.NEW;
    private final Instant createdAt = Instant.now();

    public Order(String id, String customerId) {
        this.id = id;
        this.customerId = customerId;
    }

    /** Позиция заказа: артикул, количество и цена за единицу. */
    public record OrderLine(String sku, int quantity, BigDecimal unitPrice) {
        public BigDecimal amount() {
            return unitPrice.multiply(BigDecimal.valueOf(quantity));
        }
    }

    public void addLine(String sku, int qty, BigDecimal price) {
        lines.add(new OrderLine(sku, qty, price));
    }

    public BigDecimal total() {
        return lines.stream().map(OrderLine::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    public String getId() { return id; }
    public String getCustomerId() { return customerId; }
    public List<OrderLine> getLines() { return lines; }
    public OrderStatus getStatus() { return status; }
    public Instant getCreatedAt() { return createdAt; }

    void setStatus(OrderStatus status) { this.status = status; }
}
