module github.com/trellis-dev/trellis/runtime/sdk/go

go 1.24
