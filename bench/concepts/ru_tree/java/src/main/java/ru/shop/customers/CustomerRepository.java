package ru.shop.customers;

import java.util.List;
import java.util.Optional;

/**
 * Хранилище данных о покупателях. Реализация может работать с базой
 * данных или с памятью (для тестов).
 */
public interface CustomerRepository {

    Optional<Customer> findById(String id);

    /** Поиск покупателя по адресу электронной почты без учёта регистра. */
    Optional<Customer> findByEmail(String email);

    /** Покупатели, у которых день рождения приходится на указанный месяц (1–12). */
    List<Customer> findByBirthMonth(int month);

    void save(Customer customer);

    /** Данные покупателя. */
    record Customer(String id, String name, String email, String phone, int birthMonth) {}
}
