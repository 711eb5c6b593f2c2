module example.com/my-trellis-app

go 1.24

require github.com/trellis-dev/trellis/runtime/sdk/go v0.1.0

// To build against a Trellis checkout instead of the published SDK:
// replace github.com/trellis-dev/trellis/runtime/sdk/go => ../trellis/runtime/sdk/go
