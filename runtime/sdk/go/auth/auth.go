// Package auth tells who is behind a call: the claims of the user's JWT that authorized it, on an
// endpoint declared `"auth": "jwt"` in trellis.json (Modus's auth.GetJWTClaims). The platform's gateway
// (or `trellis dev`) has verified the token against the app's keys before the function runs.
package auth

import (
	"encoding/json"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

// GetJWTClaims decodes the verified JWT claims of the call being served into T (a struct with `json`
// tags, or map[string]any). A call without them (an API key, a public endpoint, a `@lambda` field of the
// graph database) gets T's zero value and no error: check a field such as the subject.
//
//	type Claims struct {
//		Sub   string `json:"sub"`
//		Email string `json:"email"`
//	}
//	claims, err := auth.GetJWTClaims[Claims]()
//	if err != nil || claims.Sub == "" {
//		return "", errors.New("sign in first")
//	}
func GetJWTClaims[T any]() (T, error) {
	var claims T
	text, ok := host.JWTClaims()
	if !ok {
		return claims, nil
	}
	err := json.Unmarshal([]byte(text), &claims)
	return claims, err
}

// HasJWTClaims reports whether the call being served came with a verified user JWT.
func HasJWTClaims() bool {
	_, ok := host.JWTClaims()
	return ok
}
