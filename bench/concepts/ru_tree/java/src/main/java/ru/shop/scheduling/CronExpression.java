package ru.shop.scheduling;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;

/**
 * Упрощённое cron-выражение из пяти полей: минуты, часы, день месяца,
 * месяц, день недели. Поддерживаются «*», списки через запятую,
 * диапазоны «1-5» и шаг «* /15».
 */
public class CronExpression {
    private final BitSet minutes, hours, days, months, weekdays;

    private CronExpression(BitSet mi, BitSet h, BitSet d, BitSet mo, BitSet w) {
        this.minutes = mi; this.hours = h; this.days = d; this.months = mo; this.weekdays = w;
    }

    /** Разбирает строку вида "0 9 * * 1-5" (каждый будний день в 9:00). */
    public static CronExpression parse(String expr) {
        String[] f = expr.trim().split("\\s+");
        if (f.length != 5) {
            throw new IllegalArgumentException("ожидалось 5 полей: " + expr);
        }
        return new CronExpression(field(f[0], 0, 59), field(f[1], 0, 23),
                field(f[2], 1, 31), field(f[3], 1, 12), field(f[4], 0, 6));
    }

    private static BitSet field(String spec, int min, int max) {
        BitSet bits = new BitSet();
        for (String part : spec.split(",")) {
            int step = 1;
            if (part.contains("/")) {
                step = Integer.parseInt(part.substring(part.indexOf('/') + 1));
                part = part.substring(0, part.indexOf('/'));
            }
            int from = min, to = max;
            if (!part.equals("*")) {
                String[] r = part.split("-");
                from = Integer.parseInt(r[0]);
                to = r.length > 1 ? Integer.parseInt(r[1]) : from;
            }
            for (int i = from; i <= to; i += step) bits.set(i);
        }
        return bits;
    }

    /**
     * Ближайший момент после указанного, подходящий под выражение.
     * Перебор идёт поминутно, но не дальше чем на год вперёд.
     */
    public LocalDateTime nextAfter(LocalDateTime after) {
        LocalDateTime t = after.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        LocalDateTime limit = after.plusYears(1);
        while (t.isBefore(limit)) {
            if (months.get(t.getMonthValue()) && days.get(t.getDayOfMonth())
                    && weekdays.get(t.getDayOfWeek().getValue() % 7)
                    && hours.get(t.getHour()) && minutes.get(t.getMinute())) {
                return t;
            }
            t = t.plusMinutes(1);
        }
        throw new IllegalStateException("нет подходящего времени в течение года");
    }
}
