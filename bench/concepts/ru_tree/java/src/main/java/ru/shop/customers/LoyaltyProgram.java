package ru.shop.customers;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Бонусная программа: начисление и списание баллов, уровни участников.
 */
public class LoyaltyProgram {

    /** Сколько баллов нужно накопить, чтобы получить золотой уровень. */
    public static final int GOLD_THRESHOLD = 10_000;

    /** Порог серебряного уровня. */
    public static final int SILVER_THRESHOLD = 3_000;

    public enum Tier { BASIC, SILVER, GOLD }

    private final Map<String, Integer> balances = new ConcurrentHashMap<>();

    /**
     * Начисляет баллы за покупку: 1 балл за каждые 100 рублей.
     * Участникам золотого уровня начисляется в полтора раза больше.
     */
    public int addPoints(String customerId, BigDecimal purchaseAmount) {
        int points = purchaseAmount.divide(BigDecimal.valueOf(100), 0, RoundingMode.DOWN).intValue();
        if (tierFor(balances.getOrDefault(customerId, 0)) == Tier.GOLD) {
            points = points * 3 / 2;
        }
        return balances.merge(customerId, points, Integer::sum);
    }

    /**
     * Списывает баллы в счёт оплаты. Нельзя списать больше, чем есть на счёте.
     *
     * @return сколько баллов фактически списано
     */
    public int redeemPoints(String customerId, int wanted) {
        int[] taken = new int[1];
        balances.computeIfPresent(customerId, (id, bal) -> {
            taken[0] = Math.min(bal, wanted);
            return bal - taken[0];
        });
        return taken[0];
    }

    public Tier tierFor(int points) {
        if (points >= GOLD_THRESHOLD) return Tier.GOLD;
        if (points >= SILVER_THRESHOLD) return Tier.SILVER;
        return Tier.BASIC;
    }
}
