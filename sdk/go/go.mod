module github.com/pulumi-compute/pulumi-compute/sdk/go

go 1.26.6

require github.com/pulumi/pulumi/sdk/v3 v3.274.1
