// The peer comparison scripts are a module of their own so that the
// project's `go test ./...`, vet and staticcheck leave their scratch Go
// files (copied into a clone to run, never built here) alone.
module github.com/fecontact/fecontact/peers

go 1.24
