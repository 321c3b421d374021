// Command sdkgen writes the Python and Go SDKs of a Pulumi package schema, with the code generators
// of github.com/pulumi/pulumi/pkg/v3 (codegen/python, codegen/go): what `pulumi package gen-sdk`
// runs inside the language hosts, which cannot be had on the offline engine. Usage:
//
//	sdkgen <schema.json> <python|go> <output directory>
//
// The output directory is emptied first, so a file the generator no longer writes never lingers.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The tool name the generators write into each file's "do not edit" header.
const tool = "portfolio-wallet sdkgen (scripts/sdkgen)"

func main() {
	if len(os.Args) != 4 {
		fail("usage: sdkgen <schema.json> <python|go> <output directory>")
	}
	schemaFile, language, outDir := os.Args[1], os.Args[2], os.Args[3]

	text, err := os.ReadFile(schemaFile)
	if err != nil {
		fail("reading the schema: %v", err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		fail("%s is not a package schema: %v", schemaFile, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{})
	if err != nil {
		fail("binding the schema: %v", err)
	}
	if diags.HasErrors() {
		fail("the schema is invalid: %v", diags)
	}

	var files map[string][]byte
	switch language {
	case "python":
		files, err = python.GeneratePackage(tool, pkg, nil, nil)
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
	default:
		fail("unknown language %q: python or go", language)
	}
	if err != nil {
		fail("generating the %s SDK: %v", language, err)
	}

	if err := os.RemoveAll(outDir); err != nil {
		fail("emptying %s: %v", outDir, err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			fail("creating %s: %v", filepath.Dir(target), err)
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			fail("writing %s: %v", target, err)
		}
	}
	fmt.Fprintf(os.Stderr, "sdkgen: wrote %d files of the %s SDK to %s\n", len(names), language, outDir)
}

// noDependencies is the schema loader of a package that refers to no other package: any load is an
// error, so a reference to another package's types is caught instead of fetched.
type noDependencies struct{}

var errNoDependencies = errors.New("the package refers to no other package; sdkgen loads none")

func (noDependencies) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageReferenceV2(
	context.Context, *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sdkgen: "+format+"\n", args...)
	os.Exit(1)
}
