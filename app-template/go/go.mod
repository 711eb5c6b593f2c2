module example.com/my-trellis-app

go 1.24

toolchain go1.24.5

require (
	github.com/trellis-dev/trellis/runtime/sdk/go v0.1.0
	go.bytecodealliance.org/cm v0.3.0
)

// Until the SDK is published, point it at a Trellis checkout:
// replace github.com/trellis-dev/trellis/runtime/sdk/go => ../../runtime/sdk/go
