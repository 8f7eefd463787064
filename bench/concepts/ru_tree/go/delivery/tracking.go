package delivery

import (
	"fmt"
	"strings"
	"unicode"
)

// MaxParcelWeightKg — предельный вес одной посылки, который принимает служба доставки.
const MaxParcelWeightKg = 31.5

// TrackingNumber — разобранный трек-номер отправления.
type TrackingNumber struct {
	Service string // двухбуквенный код службы
	Serial  string
	Country string
}

// ParseTrackingNumber разбирает трек-номер международного формата
// вида RA123456785RU: две буквы, девять цифр и код страны.
func ParseTrackingNumber(s string) (TrackingNumber, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 13 {
		return TrackingNumber{}, fmt.Errorf("неверная длина трек-номера: %d", len(s))
	}
	for i, r := range s {
		isLetterPos := i < 2 || i > 10
		if isLetterPos && !unicode.IsLetter(r) || !isLetterPos && !unicode.IsDigit(r) {
			return TrackingNumber{}, fmt.Errorf("недопустимый символ %q в позиции %d", r, i)
		}
	}
	return TrackingNumber{Service: s[:2], Serial: s[2:11], Country: s[11:]}, nil
}

// checkDigitS10 считает контрольную цифру по стандарту S10 Всемирного почтового союза.
func checkDigitS10(serial8 string) int {
	weights := []int{8, 6, 4, 2, 3, 5, 9, 7}
	sum := 0
	for i, r := range serial8 {
		sum += int(r-'0') * weights[i]
	}
	d := 11 - sum%11
	switch d {
	case 10:
		return 0
	case 11:
		return 5
	}
	return d
}
