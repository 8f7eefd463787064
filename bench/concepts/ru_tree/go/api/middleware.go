package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log"
	"net/http"
)

type ctxKey int

const requestIDKey ctxKey = 0

// WithRequestID присваивает каждому запросу уникальный идентификатор, кладёт его
// в контекст и в заголовок ответа X-Request-ID — по нему удобно искать записи в логах.
func WithRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if id == "" {
			buf := make([]byte, 8)
			rand.Read(buf)
			id = hex.EncodeToString(buf)
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// RecoverPanic перехватывает панику в обработчике, пишет её в лог и
// отвечает клиенту кодом 500 вместо обрыва соединения.
func RecoverPanic(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if err := recover(); err != nil {
				log.Printf("паника при обработке %s: %v", r.URL.Path, err)
				http.Error(w, "внутренняя ошибка сервера", http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}
