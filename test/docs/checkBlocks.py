"""The Python half of test/docs/codeBlocks.engine.test.ts, in one run of the shared virtual environment.

Reads a JSON list of {"id", "language", "file"} and prints a JSON object: for each Python block,
the errors of `python -m py_compile` and of importing every module (and every name taken from a
module) it imports; for each YAML block, its parsed value (PyYAML comes with `pulumi`).
"""

import ast
import importlib
import json
import py_compile
import sys

import yaml


def python_errors(file):
    try:
        py_compile.compile(file, doraise=True)
    except py_compile.PyCompileError as error:
        return [error.msg.strip()]
    with open(file, encoding="utf-8") as source:
        tree = ast.parse(source.read(), file)
    errors = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                try:
                    importlib.import_module(alias.name)
                except Exception as error:  # any failure to import is the block's error
                    errors.append(f"line {node.lineno}: import {alias.name}: {error!r}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            try:
                module = importlib.import_module(node.module)
            except Exception as error:
                errors.append(f"line {node.lineno}: from {node.module} import ...: {error!r}")
                continue
            for alias in node.names:
                if alias.name == "*" or hasattr(module, alias.name):
                    continue
                try:
                    importlib.import_module(f"{node.module}.{alias.name}")
                except Exception as error:
                    errors.append(f"line {node.lineno}: from {node.module} import {alias.name}: {error!r}")
    return errors


def main():
    with open(sys.argv[1], encoding="utf-8") as listing:
        blocks = json.load(listing)
    results = {}
    for block in blocks:
        if block["language"] == "python":
            results[block["id"]] = {"errors": python_errors(block["file"])}
        else:
            with open(block["file"], encoding="utf-8") as source:
                try:
                    results[block["id"]] = {"errors": [], "parsed": yaml.safe_load(source)}
                except yaml.YAMLError as error:
                    results[block["id"]] = {"errors": [f"not YAML: {error}"]}
    json.dump(results, sys.stdout, default=str)


main()
