#!/usr/bin/env python3
"""Checks that README.md's Swift code is real: compiled and run by the playground scripts.

Every ```swift block in README.md must be, verbatim, a region of a playground script
marked like this:

    // README: some-name
    ...code shown in the README...
    // END README

and every marked region must appear in README.md (so neither side drifts). Since
`Playground-scripts/run.sh --check` compiles and runs every script with warnings as errors
and compares its output, README code that stops compiling or behaving fails CI.

Also checked: the two setup commands appear verbatim as shell lines (`swift run
reactive-demo`, and `swift test`, the exact command CI runs), a "Benchmarks" section
links to Benchmarks/BENCHMARKS.md, and every relative link in README.md points to a file
that exists.

Usage: python3 Playground-scripts/check-readme.py [README.md]   (exit 1 on any problem)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = re.compile(r"^\s*// README: ([A-Za-z0-9_.-]+)\s*$")
END = re.compile(r"^\s*// END README\s*$")


def dedent(lines):
    """Removes the common leading indentation and trailing whitespace."""
    lines = [line.rstrip() for line in lines]
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents) if indents else 0
    return "\n".join(line[cut:] for line in lines).strip("\n")


def script_regions(problems):
    regions = {}
    scripts = sorted(glob.glob(os.path.join(ROOT, "Playground-scripts", "[0-9]*.swift")))
    if not scripts:
        problems.append("no playground scripts found")
    for path in scripts:
        name = os.path.relpath(path, ROOT)
        current, body = None, []
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                start, end = START.match(line), END.match(line)
                if start:
                    if current:
                        problems.append("%s:%d: README region '%s' opened inside '%s'" % (name, number, start.group(1), current))
                    current, body = start.group(1), []
                    if current in regions:
                        problems.append("%s:%d: README region '%s' defined twice" % (name, number, current))
                elif end:
                    if not current:
                        problems.append("%s:%d: END README without a region" % (name, number))
                    else:
                        regions[current] = (name, dedent(body))
                        current = None
                elif current:
                    body.append(line)
        if current:
            problems.append("%s: README region '%s' is never closed" % (name, current))
    return regions


def readme_blocks(text):
    """(language, code, line number) of every fenced block."""
    blocks = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        match = re.match(r"^(\s*)```(\w*)\s*$", lines[index])
        if match:
            start = index
            body = []
            index += 1
            while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
                body.append(lines[index])
                index += 1
            blocks.append((match.group(2), dedent(body), start + 1))
        index += 1
    return blocks


def main():
    readme_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "README.md")
    label = os.path.relpath(readme_path, ROOT) if len(sys.argv) > 1 else "README.md"
    problems = []
    with open(readme_path, encoding="utf-8") as handle:
        text = handle.read()
    regions = script_regions(problems)
    by_code = {code: name for name, (_, code) in regions.items()}
    blocks = readme_blocks(text)

    swift_blocks = [(code, line) for language, code, line in blocks if language == "swift"]
    if not swift_blocks:
        problems.append("README.md has no ```swift block: the API tour is missing")
    shown = set()
    for code, line in swift_blocks:
        name = by_code.get(code)
        if name is None:
            first = code.split("\n")[0]
            problems.append((label + ":%d: this swift block is not a marked region of any playground script "
                            "(copy it from a `// README: name` region verbatim): %s") % (line, first))
        else:
            shown.add(name)
    for name, (script, _) in sorted(regions.items()):
        if name not in shown:
            problems.append("%s: README region '%s' is not shown in README.md" % (script, name))

    shell_lines = {l.strip() for language, code, _ in blocks if language in ("sh", "bash", "shell") for l in code.split("\n")}
    for command in ("swift run reactive-demo", "swift test"):
        if command not in shell_lines:
            problems.append(label + ": no shell block with the exact line `%s`" % command)

    if not re.search(r"^#+\s*Benchmarks\s*$", text, re.M):
        problems.append(label + ": no 'Benchmarks' heading")
    if "Benchmarks/BENCHMARKS.md" not in text:
        problems.append(label + ": no link to Benchmarks/BENCHMARKS.md")

    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        path = os.path.join(os.path.dirname(os.path.abspath(readme_path)), target.split("#")[0])
        if not os.path.exists(path):
            problems.append(label + ": broken relative link %s" % target)

    for problem in problems:
        print("FAIL " + problem)
    if problems:
        return 1
    print("ok   " + label + ": %d swift blocks, each a region of a playground script" % len(swift_blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
