// Пакет api — HTTP-слой сервиса: ограничения, промежуточные обработчики, авторизация.
package api

import (
	"sync"
	"time"
)

// TokenBucket ограничивает частоту запросов по алгоритму «ведро с токенами»:
// токены пополняются с постоянной скоростью, каждый запрос забирает один.
type TokenBucket struct {
	mu       sync.Mutex
	capacity float64
	tokens   float64
	rate     float64 // токенов в секунду
	last     time.Time
}

// NewTokenBucket создаёт ведро заданной ёмкости, изначально полное.
func NewTokenBucket(capacity int, perSecond float64) *TokenBucket {
	return &TokenBucket{capacity: float64(capacity), tokens: float64(capacity), rate: perSecond, last: time.Now()}
}

// Allow сообщает, можно ли пропустить запрос прямо сейчас, и если да — списывает токен.
func (b *TokenBucket) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	b.tokens += now.Sub(b.last).Seconds() * b.rate
	if b.tokens > b.capacity {
		b.tokens = b.capacity
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
