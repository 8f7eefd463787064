package inventory

import "sort"

// Discrepancy — расхождение между учётным и фактическим количеством товара.
type Discrepancy struct {
	SKU      string
	Expected int
	Counted  int
}

// Diff возвращает разницу: положительная — излишек, отрицательная — недостача.
func (d Discrepancy) Diff() int { return d.Counted - d.Expected }

// CompareCounts сверяет результаты пересчёта с данными учёта и возвращает
// список расхождений, отсортированный по абсолютной величине (самые крупные первыми).
func CompareCounts(expected, counted map[string]int) []Discrepancy {
	seen := map[string]bool{}
	var out []Discrepancy
	for sku, e := range expected {
		seen[sku] = true
		if c := counted[sku]; c != e {
			out = append(out, Discrepancy{sku, e, c})
		}
	}
	for sku, c := range counted {
		if !seen[sku] && c != 0 {
			out = append(out, Discrepancy{sku, 0, c})
		}
	}
	sort.Slice(out, func(i, j int) bool { return abs(out[i].Diff()) > abs(out[j].Diff()) })
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
