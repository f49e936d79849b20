module github.com/fecontact/fecontact

go 1.26.8

require (
	github.com/james-bowman/sparse v0.0.0-20260216202247-495ee4f84d35
	github.com/stretchr/testify v1.12.1
	gonum.org/v1/gonum v0.17.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
