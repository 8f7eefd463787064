// Пакет delivery отвечает за маршруты курьеров и сроки доставки.
package delivery

import (
	"math"
	"time"
)

// Point — географическая точка (широта и долгота в градусах).
type Point struct {
	Lat, Lon float64
}

// Route — последовательность точек, которые курьер посещает по порядку.
type Route struct {
	Stops   []Point
	StopFor time.Duration // сколько времени курьер тратит на одну точку
}

const earthRadiusKm = 6371.0

// distanceKm вычисляет расстояние между двумя точками по формуле гаверсинусов.
func distanceKm(a, b Point) float64 {
	toRad := func(d float64) float64 { return d * math.Pi / 180 }
	dLat := toRad(b.Lat - a.Lat)
	dLon := toRad(b.Lon - a.Lon)
	h := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(toRad(a.Lat))*math.Cos(toRad(b.Lat))*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Sqrt(h))
}

// Length возвращает полную длину маршрута в километрах.
func (r Route) Length() float64 {
	total := 0.0
	for i := 1; i < len(r.Stops); i++ {
		total += distanceKm(r.Stops[i-1], r.Stops[i])
	}
	return total
}

// EstimateArrival прогнозирует, когда курьер доберётся до последней точки,
// если выедет в start и будет ехать со средней скоростью speedKmh.
// Учитывается время стоянки на каждой промежуточной точке.
func EstimateArrival(r Route, start time.Time, speedKmh float64) time.Time {
	if speedKmh <= 0 || len(r.Stops) == 0 {
		return start
	}
	drive := time.Duration(r.Length() / speedKmh * float64(time.Hour))
	stops := time.Duration(len(r.Stops)-1) * r.StopFor
	return start.Add(drive + stops)
}

func nearestNeighbourOrder(depot Point, pts []Point) []Point {
	left := append([]Point(nil), pts...)
	cur := depot
	var out []Point
	for len(left) > 0 {
		best := 0
		for i := range left {
			if distanceKm(cur, left[i]) < distanceKm(cur, left[best]) {
				best = i
			}
		}
		cur = left[best]
		out = append(out, cur)
		left = append(left[:best], left[best+1:]...)
	}
	return out
}
