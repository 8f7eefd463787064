// Пакет reports — выгрузка отчётов для бухгалтерии и руководства.
package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// Row — одна строка отчёта о продажах.
type Row struct {
	Date     string
	SKU      string
	Qty      int
	AmountKp int64 // сумма в копейках
}

// FormatMoney превращает сумму в копейках в строку вида "1 234 567,89 ₽"
// с пробелами между разрядами, как принято в русских документах.
func FormatMoney(kopecks int64) string {
	neg := kopecks < 0
	if neg {
		kopecks = -kopecks
	}
	rub := fmt.Sprintf("%d", kopecks/100)
	var b strings.Builder
	for i, r := range rub {
		if i > 0 && (len(rub)-i)%3 == 0 {
			b.WriteRune(' ')
		}
		b.WriteRune(r)
	}
	s := fmt.Sprintf("%s,%02d ₽", b.String(), kopecks%100)
	if neg {
		s = "-" + s
	}
	return s
}

// WriteCSVReport записывает строки отчёта в CSV с разделителем «;»,
// чтобы файл корректно открывался в русской версии Excel.
func WriteCSVReport(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	if err := cw.Write([]string{"Дата", "Артикул", "Количество", "Сумма"}); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Date, r.SKU, fmt.Sprint(r.Qty), FormatMoney(r.AmountKp)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
