// compute-codegen binds schema.json with Pulumi's schema binder and generates the Node.js, Python and Go
// SDKs with Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen at the CLI's version).
//
//	compute-codegen [-schema schema.json] -out DIR [-lang nodejs,python,go]   bind, then write DIR/<lang>/...
//	compute-codegen [-schema schema.json] -check                             bind only
//
// The schema is decoded strictly (a key Pulumi's schema does not have is an error), then bound; the binder's
// diagnostics go to stderr; any error exits 1 before anything is written. The schema may
// reference only the builtin `pulumi` package (pulumi.json#/Any and friends): any other package is refused,
// so nothing is downloaded and no plugin is run.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-compute codegen"

// builtinOnly loads the builtin pulumi package and refuses every other one.
type builtinOnly struct{}

func (builtinOnly) refuse(name string) error {
	return fmt.Errorf("schema.json references the external package %q: only the builtin pulumi package is allowed", name)
}

func (l builtinOnly) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	if pkg == "pulumi" {
		return schema.DefaultPulumiPackage, nil
	}
	return nil, l.refuse(pkg)
}

func (l builtinOnly) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l builtinOnly) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	p, err := l.LoadPackage(pkg, v)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l builtinOnly) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

var _ schema.ReferenceLoader = builtinOnly{}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "compute-codegen: "+format+"\n", args...)
	os.Exit(1)
}

// bind reads and binds the schema; it prints every diagnostic and exits 1 on an error.
func bind(file string, quiet bool) *schema.Package {
	data, err := os.ReadFile(file)
	if err != nil {
		fail("%v", err)
	}
	var spec schema.PackageSpec
	// Strict: the binder ignores keys it does not know, so JSON Schema's own (minLength, pattern...) would
	// pass unnoticed and unsaid in the SDKs; every key must be one of Pulumi's schema.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		fail("%s is not a Pulumi package schema: %v", file, err)
	}
	pkg, diags, err := schema.BindSpec(spec, builtinOnly{}, schema.ValidationOptions{})
	for _, d := range diags {
		if quiet && d.Severity != hcl.DiagError {
			continue
		}
		fmt.Fprintf(os.Stderr, "compute-codegen: %s: %s\n", file, d.Error())
	}
	if err != nil {
		fail("binding %s: %v", file, err)
	}
	if diags.HasErrors() {
		fail("%s: %d error(s) from the schema binder", file, len(diags.Errs()))
	}
	if quiet {
		return pkg
	}
	fmt.Fprintf(os.Stderr, "compute-codegen: %s binds: %d resources, %d functions, %d types, %d warning(s)\n",
		file, len(pkg.Resources), len(pkg.Functions), len(pkg.Types), len(diags))
	return pkg
}

func generate(lang string, file string) (map[string][]byte, error) {
	// Each generator records its own language info in the package: bind afresh for each one.
	pkg := bind(file, true)
	switch lang {
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, builtinOnly{})
	case "python":
		return python.GeneratePackage(tool, pkg, nil, builtinOnly{})
	case "go":
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err == nil {
			err = addGoMod(pkg, files)
		}
		return files, err
	}
	return nil, fmt.Errorf("unknown language %q (nodejs, python, go)", lang)
}

// addGoMod makes the Go SDK a module of its own (the generator writes one only for "support pack" schemas):
// its path is the folder above importBasePath, and it requires the Pulumi Go SDK this tool is built with.
func addGoMod(pkg *schema.Package, files map[string][]byte) error {
	if _, ok := files["go.mod"]; ok {
		return nil
	}
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	if info.ImportBasePath == "" {
		return fmt.Errorf("language.go.importBasePath is not set in the schema")
	}
	sdk := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
				sdk = dep.Version
			}
		}
	}
	if sdk == "" {
		return fmt.Errorf("cannot tell which github.com/pulumi/pulumi/sdk/v3 this tool is built with")
	}
	mod := path.Dir(info.ImportBasePath)
	rel := strings.TrimPrefix(info.ImportBasePath, mod+"/")
	// The generator writes its files under <package name>/; the module root is the folder above.
	files["go.mod"] = []byte(fmt.Sprintf("module %s\n\ngo 1.25.11\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n", mod, sdk))
	for name := range files {
		if name != "go.mod" && !strings.HasPrefix(name, rel+"/") && !strings.HasPrefix(name, ".") {
			return fmt.Errorf("generated Go file %s is outside %s/", name, rel)
		}
	}
	return nil
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	file := flag.String("schema", "schema.json", "the package schema")
	out := flag.String("out", "", "output folder: each language goes to <out>/<lang>")
	langs := flag.String("lang", "nodejs,python,go", "languages to generate")
	check := flag.Bool("check", false, "bind the schema and report, generate nothing")
	flag.Parse()
	if *check {
		bind(*file, false)
		return
	}
	if *out == "" {
		fail("-out is required (or -check)")
	}
	bind(*file, false)
	for _, lang := range strings.Split(*langs, ",") {
		t0 := time.Now()
		files, err := generate(lang, *file)
		if err != nil {
			fail("generating %s: %v", lang, err)
		}
		dir := filepath.Join(*out, lang)
		if err := write(dir, files); err != nil {
			fail("writing %s: %v", dir, err)
		}
		fmt.Fprintf(os.Stderr, "compute-codegen: %s: %d files in %s (%s)\n", lang, len(files), dir, time.Since(t0).Round(time.Millisecond))
	}
}
