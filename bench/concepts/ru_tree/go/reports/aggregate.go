package reports

import (
	"sort"
	"time"
)

// Order — упрощённый заказ для аналитики.
type Order struct {
	CreatedAt time.Time
	Lines     map[string]int64 // артикул -> сумма в копейках
}

// MonthlyRevenue суммирует выручку по календарным месяцам.
// Ключ результата — строка "2024-03".
func MonthlyRevenue(orders []Order) map[string]int64 {
	out := map[string]int64{}
	for _, o := range orders {
		key := o.CreatedAt.Format("2006-01")
		for _, amount := range o.Lines {
			out[key] += amount
		}
	}
	return out
}

// TopProducts возвращает n артикулов, принёсших больше всего денег.
func TopProducts(orders []Order, n int) []string {
	sums := map[string]int64{}
	for _, o := range orders {
		for sku, amount := range o.Lines {
			sums[sku] += amount
		}
	}
	skus := make([]string, 0, len(sums))
	for sku := range sums {
		skus = append(skus, sku)
	}
	sort.Slice(skus, func(i, j int) bool { return sums[skus[i]] > sums[skus[j]] })
	if len(skus) > n {
		skus = skus[:n]
	}
	return skus
}

func averageCheck(orders []Order) float64 {
	if len(orders) == 0 {
		return 0
	}
	var total int64
	for _, o := range orders {
		for _, a := range o.Lines {
			total += a
		}
	}
	return float64(total) / float64(len(orders)) / 100
}
