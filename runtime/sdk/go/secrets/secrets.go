// Package secrets reads app secrets (TRELLIS_APP_<NAME> on the host): the only way a secret value
// enters app memory. Connection secrets stay on the host and are never readable here.
package secrets

import "github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"

// Get returns the app secret name, or an error when it is not set.
func Get(name string) (string, error) { return host.AppSecret(name) }
