package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// ErrTokenExpired — срок действия токена истёк.
var ErrTokenExpired = errors.New("токен просрочен")

// SignToken выпускает токен вида "<userID>.<expires>.<подпись>".
func SignToken(userID string, ttl time.Duration, secret []byte) string {
	exp := strconv.FormatInt(time.Now().Add(ttl).Unix(), 10)
	payload := userID + "." + exp
	return payload + "." + sign(payload, secret)
}

// ValidateToken проверяет подпись и срок действия токена и возвращает
// идентификатор пользователя, которому он был выдан.
func ValidateToken(token string, secret []byte) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("неверный формат токена")
	}
	if !hmac.Equal([]byte(sign(parts[0]+"."+parts[1], secret)), []byte(parts[2])) {
		return "", errors.New("подпись не совпадает")
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || time.Now().Unix() > exp {
		return "", ErrTokenExpired
	}
	return parts[0], nil
}

func sign(payload string, secret []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
