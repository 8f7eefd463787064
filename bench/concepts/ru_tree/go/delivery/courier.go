package delivery

import "errors"

// ErrNoCourier возвращается, когда нет ни одного свободного курьера.
var ErrNoCourier = errors.New("нет свободных курьеров")

// Courier описывает курьера и его текущее состояние.
type Courier struct {
	ID        string
	Location  Point
	Busy      bool
	MaxLoadKg float64
}

// AssignCourier выбирает ближайшего к точке забора свободного курьера,
// который способен увезти посылку указанного веса.
func AssignCourier(pickup Point, weightKg float64, couriers []*Courier) (*Courier, error) {
	var best *Courier
	bestDist := 0.0
	for _, c := range couriers {
		if c.Busy || c.MaxLoadKg < weightKg {
			continue
		}
		d := distanceKm(pickup, c.Location)
		if best == nil || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == nil {
		return nil, ErrNoCourier
	}
	best.Busy = true
	return best, nil
}
