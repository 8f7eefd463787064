package ru.shop.warehouse;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Подбирает место хранения для поступившего на склад паллета.
 */
public class ShelfAllocator {

    /** Ячейка стеллажа с ограничениями по весу и высоте. */
    public static class Slot {
        final String code;
        final double maxWeightKg;
        final int heightCm;
        final int level;
        boolean occupied;

        public Slot(String code, double maxWeightKg, int heightCm, int level) {
            this.code = code;
            this.maxWeightKg = maxWeightKg;
            this.heightCm = heightCm;
            this.level = level;
        }
    }

    private final List<Slot> slots;

    public ShelfAllocator(List<Slot> slots) {
        this.slots = slots;
    }

    /**
     * Находит свободную ячейку, которая выдержит вес и вместит паллет по высоте.
     * Тяжёлые паллеты стараемся ставить на нижние ярусы; среди подходящих
     * выбирается ячейка с минимальным запасом по высоте, чтобы не терять место.
     */
    public Optional<Slot> allocate(double weightKg, int heightCm) {
        Optional<Slot> slot = slots.stream()
                .filter(s -> !s.occupied && s.maxWeightKg >= weightKg && s.heightCm >= heightCm)
                .min(Comparator.<Slot>comparingInt(s -> weightKg > 500 ? s.level : 0)
                        .thenComparingInt(s -> s.heightCm - heightCm));
        slot.ifPresent(s -> s.occupied = true);
        return slot;
    }

    public void release(String code) {
        slots.stream().filter(s -> s.code.equals(code)).forEach(s -> s.occupied = false);
    }
}
