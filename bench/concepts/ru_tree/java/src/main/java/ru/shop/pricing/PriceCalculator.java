package ru.shop.pricing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Расчёт цены с учётом оптовых ступеней и купонов.
 */
public class PriceCalculator {

    /** Ступени оптовой скидки: от какого количества штук какой процент. */
    private final NavigableMap<Integer, BigDecimal> tiers = new TreeMap<>();

    public PriceCalculator() {
        tiers.put(1, BigDecimal.ZERO);
        tiers.put(10, new BigDecimal("5"));
        tiers.put(50, new BigDecimal("10"));
        tiers.put(200, new BigDecimal("15"));
    }

    /**
     * Возвращает цену за единицу с учётом оптовой ступени: чем больше
     * штук покупается, тем ниже цена.
     */
    public BigDecimal applyTieredPricing(BigDecimal basePrice, int quantity) {
        BigDecimal percent = tiers.floorEntry(Math.max(quantity, 1)).getValue();
        BigDecimal factor = BigDecimal.ONE.subtract(percent.movePointLeft(2));
        return basePrice.multiply(factor).setScale(2, RoundingMode.HALF_UP);
    }

    /**
     * Итоговая сумма позиции: оптовая цена × количество, затем купон.
     * Купон не может сделать сумму отрицательной.
     */
    public BigDecimal calculateTotal(BigDecimal basePrice, int quantity, Coupon coupon) {
        BigDecimal sum = applyTieredPricing(basePrice, quantity).multiply(BigDecimal.valueOf(quantity));
        if (coupon != null && !coupon.isExpired()) {
            sum = sum.subtract(coupon.discountFor(sum));
        }
        return sum.max(BigDecimal.ZERO);
    }
}
