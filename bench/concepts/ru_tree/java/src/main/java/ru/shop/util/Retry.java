package ru.shop.util;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Повтор операций, которые могут временно завершаться ошибкой
 * (например, запросы к платёжному шлюзу).
 */
public final class Retry {
    private final int maxAttempts;
    private final Duration initialDelay;

    public Retry(int maxAttempts, Duration initialDelay) {
        this.maxAttempts = maxAttempts;
        this.initialDelay = initialDelay;
    }

    /**
     * Вычисляет паузу перед очередной попыткой: экспоненциальный рост
     * со случайным разбросом до 20 %, чтобы клиенты не повторяли запросы синхронно.
     */
    long delayBeforeAttempt(int attempt) {
        long base = initialDelay.toMillis() * (1L << Math.min(attempt - 1, 16));
        long jitter = (long) (base * 0.2 * ThreadLocalRandom.current().nextDouble());
        return base + jitter;
    }

    public <T> T call(Callable<T> action) throws Exception {
        Exception last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                return action.call();
            } catch (Exception e) {
                last = e;
                if (attempt < maxAttempts) {
                    Thread.sleep(delayBeforeAttempt(attempt));
                }
            }
        }
        throw last;
    }
}
