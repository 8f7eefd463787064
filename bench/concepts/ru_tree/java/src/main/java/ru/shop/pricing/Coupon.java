package ru.shop.pricing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;

/**
 * Купон на скидку: фиксированная сумма либо процент, с датой окончания.
 */
public class Coupon {
    private final String code;
    private final BigDecimal fixedAmount;
    private final BigDecimal percent;
    private final LocalDate validUntil;

    public Coupon(String code, BigDecimal fixedAmount, BigDecimal percent, LocalDate validUntil) {
        this.code = code;
        this.fixedAmount = fixedAmount;
        this.percent = percent;
        this.validUntil = validUntil;
    }

    public boolean isExpired() {
        return LocalDate.now().isAfter(validUntil);
    }

    /** Размер скидки для указанной суммы; процентная скидка округляется до копеек. */
    public BigDecimal discountFor(BigDecimal sum) {
        if (fixedAmount != null) {
            return fixedAmount.min(sum);
        }
        return sum.multiply(percent).divide(BigDecimal.valueOf(100), 2, RoundingMode.HALF_UP);
    }

    public String getCode() { return code; }
}
