module pulumi-compute/tests/go/linodego

go 1.26.6

require github.com/linode/linodego v1.36.1

require (
	github.com/go-resty/resty/v2 v2.13.1 // indirect
	golang.org/x/net v0.26.0 // indirect
	golang.org/x/text v0.16.0 // indirect
	gopkg.in/ini.v1 v1.66.6 // indirect
)
