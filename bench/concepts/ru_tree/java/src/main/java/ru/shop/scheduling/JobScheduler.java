package ru.shop.scheduling;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Запускает фоновые задачи по расписанию: выгрузку отчётов, пересчёт
 * остатков, рассылку напоминаний об оплате.
 */
public class JobScheduler {
    private static final Logger LOG = Logger.getLogger(JobScheduler.class.getName());

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);

    /**
     * Запускает задачу по cron-выражению. После каждого выполнения
     * вычисляется следующее время запуска. Ошибка задачи не останавливает расписание.
     */
    public void scheduleCron(String name, CronExpression cron, Runnable job) {
        LocalDateTime next = cron.nextAfter(LocalDateTime.now());
        long delayMs = Duration.between(LocalDateTime.now(), next).toMillis();
        executor.schedule(() -> {
            try {
                job.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "задача " + name + " упала", e);
            } finally {
                scheduleCron(name, cron, job);
            }
        }, Math.max(delayMs, 0), TimeUnit.MILLISECONDS);
    }

    public void scheduleEvery(Duration period, Runnable job) {
        executor.scheduleAtFixedRate(job, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Корректно останавливает планировщик, дожидаясь завершения текущих задач. */
    public void shutdown() throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            executor.shutdownNow();
        }
    }
}
