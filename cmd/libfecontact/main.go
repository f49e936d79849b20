// Command libfecontact is fecontact's C ABI (fecontact.h), built as a
// shared library:
//
//	go build -buildmode=c-shared -o libfecontact.so ./cmd/libfecontact
//
// Each export converts C's arguments to Go's and calls package abi, which
// holds the semantics (handles, codes, messages) in pure Go; no Go pointer
// crosses to C. The default build (CGO_ENABLED=0) leaves the exports out
// and builds an empty program: the ABI is its own target.
package main

func main() {}
