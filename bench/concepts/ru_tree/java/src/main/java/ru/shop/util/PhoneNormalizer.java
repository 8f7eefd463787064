package ru.shop.util;

/**
 * Приведение телефонных номеров к единому виду.
 */
public final class PhoneNormalizer {
    private PhoneNormalizer() {}

    /**
     * Приводит российский номер к формату +7XXXXXXXXXX.
     * Понимает варианты «8 (912) 345-67-89», «+7 912 3456789», «9123456789».
     *
     * @return нормализованный номер или null, если номер распознать не удалось
     */
    public static String normalize(String raw) {
        if (raw == null) return null;
        String digits = raw.replaceAll("\\D", "");
        if (digits.length() == 11 && (digits.startsWith("8") || digits.startsWith("7"))) {
            digits = digits.substring(1);
        }
        if (digits.length() != 10) {
            return null;
        }
        return "+7" + digits;
    }

    public static String mask(String normalized) {
        // +7912***6789 — для отображения в интерфейсе оператора
        return normalized.substring(0, 5) + "***" + normalized.substring(8);
    }
}
