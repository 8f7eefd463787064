// Пакет inventory — партии товара, сроки годности и инвентаризация.
package inventory

import (
	"sort"
	"time"
)

// Lot — партия товара с собственным сроком годности.
type Lot struct {
	SKU       string
	Number    string
	Qty       int
	ExpiresAt time.Time
	Received  time.Time
}

// SelectLotsByExpiry подбирает партии для отгрузки так, чтобы первыми
// уходили товары с ближайшим сроком годности (принцип FEFO).
// Партии, срок которых истекает раньше minShelfLife, не отгружаются.
func SelectLotsByExpiry(lots []Lot, need int, now time.Time, minShelfLife time.Duration) []Lot {
	sorted := append([]Lot(nil), lots...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ExpiresAt.Before(sorted[j].ExpiresAt) })
	var out []Lot
	for _, l := range sorted {
		if need <= 0 {
			break
		}
		if l.ExpiresAt.Sub(now) < minShelfLife {
			continue
		}
		take := l.Qty
		if take > need {
			take = need
		}
		l.Qty = take
		out = append(out, l)
		need -= take
	}
	return out
}

// ExpiredLots возвращает партии, которые уже просрочены на дату now.
func ExpiredLots(lots []Lot, now time.Time) []Lot {
	var out []Lot
	for _, l := range lots {
		if !l.ExpiresAt.After(now) {
			out = append(out, l)
		}
	}
	return out
}
