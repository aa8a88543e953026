#!/usr/bin/env python3
"""Checks that no two text labels of an SVG picture overlap.

Each <text> element gets a box from its position (x, y and the translate/rotate transforms of it
and its ancestors), its font size and weight, its anchor (text-anchor) and the length of its
string: a conservative 0.62 em per character (0.68 em in bold; DejaVu Sans averages about 0.55),
from 0.8 em above the baseline to 0.2 em below. Font size, weight and anchor come from the
element's attributes, its style attribute, the rules of the document's <style> elements that
name its tag or classes (".a", ".a.b", "text", ".a text") and its ancestors' attributes, in that
order of precedence. Two boxes overlap when they share more than 0.5 px in both directions.
Empty labels are skipped.

With --min-size PX, a label whose font size is below PX pixels is a problem too (one line each:
file, string, size): the figures the documentation shows are read at their size.

Prints one line per overlapping pair (file, both strings) and a summary; exits 1 when some pair
overlaps, some label is too small, or when no SVG file is found.

Usage: check_svg_labels.py [--min-size PX] PATH...   (files, or directories searched recursively
       for *.svg)
"""
import math
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
CHAR_EM = 0.62
BOLD_CHAR_EM = 0.68
SLACK = 0.5  # px of overlap tolerated (touching boxes, rounding)


def parse_css(text):
    """[(selector parts, declarations)] for the simple rules the pictures use."""
    rules = []
    for block in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        selectors, body = block
        decls = {}
        for decl in body.split(";"):
            if ":" in decl:
                key, value = decl.split(":", 1)
                decls[key.strip()] = value.strip()
        for selector in selectors.split(","):
            parts = selector.split()
            if parts:
                rules.append((parts, decls))
    return rules


def simple_matches(part, tag, classes):
    """Whether a compound selector such as `text`, `.a` or `.a.b` matches an element."""
    m = re.fullmatch(r"([a-zA-Z]*)((?:\.[\w-]+)*)", part)
    if not m:
        return False
    name, cls = m.groups()
    if name and name != tag:
        return False
    return all(c in classes for c in cls.split(".")[1:])


def rule_matches(parts, chain):
    """chain: [(tag, classes)] from the root to the element."""
    tag, classes = chain[-1]
    if not simple_matches(parts[-1], tag, classes):
        return False
    if len(parts) == 1:
        return True
    return any(simple_matches(parts[0], t, c) for t, c in chain[:-1])


def declarations(element):
    decls = {}
    for key in ("font-size", "font-weight", "text-anchor"):
        if element.get(key) is not None:
            decls[key] = element.get(key)
    for decl in (element.get("style") or "").split(";"):
        if ":" in decl:
            key, value = decl.split(":", 1)
            decls[key.strip()] = value.strip()
    return decls


def number(text, default=0.0):
    m = re.match(r"\s*(-?[0-9.]+(?:e-?[0-9]+)?)", text or "")
    return float(m.group(1)) if m else default


def parse_transform(text):
    """A 2x3 affine matrix (a, b, c, d, e, f) for translate/rotate/scale/matrix lists."""
    matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "rotate":
            a = math.radians(v[0])
            t = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0.0, 0.0)
            if len(v) == 3:
                t = compose(compose((1, 0, 0, 1, v[1], v[2]), t), (1, 0, 0, 1, -v[1], -v[2]))
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "matrix":
            t = tuple(v)
        else:
            continue
        matrix = compose(matrix, t)
    return matrix


def compose(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def text_boxes(root):
    rules = []
    for style in root.iter(SVG + "style"):
        rules += parse_css(style.text or "")
    boxes = []

    def visit(element, chain, inherited, matrix):
        tag = element.tag.replace(SVG, "")
        classes = set((element.get("class") or "").split())
        chain = chain + [(tag, classes)]
        props = dict(inherited)
        for parts, decls in rules:
            if rule_matches(parts, chain):
                props.update({k: v for k, v in decls.items()
                              if k in ("font-size", "font-weight", "text-anchor")})
        props.update(declarations(element))
        matrix = compose(matrix, parse_transform(element.get("transform")))
        if tag == "text":
            string = "".join(element.itertext()).strip()
            if string:
                boxes.append(box_of(element, string, props, matrix))
            return
        for child in element:
            if child.tag.replace(SVG, "") not in ("title", "defs", "style", "clipPath"):
                visit(child, chain, props, matrix)

    visit(root, [], {"font-size": "16", "text-anchor": "start"}, parse_transform(""))
    return boxes


def box_of(element, string, props, matrix):
    size = number(props.get("font-size"), 16.0)
    bold = props.get("font-weight", "normal") in ("bold", "bolder", "600", "700", "800", "900")
    width = len(string) * size * (BOLD_CHAR_EM if bold else CHAR_EM)
    x, y = number(element.get("x")), number(element.get("y"))
    anchor = props.get("text-anchor", "start")
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    corners = [apply(matrix, px, py) for px in (left, left + width)
               for py in (y - 0.8 * size, y + 0.2 * size)]
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys), string, size)


def overlapping_pairs(boxes):
    pairs = []
    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    for k, i in enumerate(order):
        a = boxes[i]
        for j in order[k + 1:]:
            b = boxes[j]
            if b[0] > a[2] - SLACK:
                break
            if min(a[3], b[3]) - max(a[1], b[1]) > SLACK and min(a[2], b[2]) - b[0] > SLACK:
                pairs.append((a[4], b[4]))
    return pairs


def svg_files(paths):
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("*.svg"))
        elif p.exists():
            yield p


def main(argv):
    if len(argv) < 2:
        print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    min_size = None
    if argv[1] == "--min-size":
        if len(argv) < 4:
            print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
            return 2
        min_size = float(argv[2])
        argv = argv[:1] + argv[3:]
    files = list(svg_files(argv[1:]))
    bad = small = 0
    for path in files:
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            print(f"{path}: not well-formed: {e}")
            bad += 1
            continue
        boxes = text_boxes(root)
        for a, b in overlapping_pairs(boxes):
            print(f"{path}: '{a}' overlaps '{b}'")
            bad += 1
        if min_size is not None:
            for box in boxes:
                if box[5] < min_size:
                    print(f"{path}: '{box[4]}' is {box[5]:g} px, below {min_size:g} px")
                    small += 1
    print(f"{len(files)} SVG files checked, {bad} overlapping label pairs" +
          (f", {small} labels below {min_size:g} px" if min_size is not None else ""))
    return 1 if bad or small or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
