#!/usr/bin/env node
// SPDX-License-Identifier: MPL-2.0
// adapter.js: the tfexpr conformance protocol in front of @cdktf/hcl2json
// (upstream HCL's hclsyntax compiled to WebAssembly). It parses expressions
// and finds their references; it evaluates nothing. See README.md beside
// this file for what it declares and what it approximates.
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const NODE_DIR = path.join(__dirname, '..', 'node');
const { serve, expressionSource } = require(path.join(NODE_DIR, 'protocol.js'));

const PACKAGE = '@cdktf/hcl2json';
const FILENAME = 'case.hcl';

function loadPackage() {
  const main = require.resolve(PACKAGE, { paths: [NODE_DIR] });
  const dir = path.dirname(path.dirname(main));
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  return { api: require(main), dir, version };
}

// moduleVersions reads the versions of HCL and cty that the WebAssembly
// module was built with from its Go build information.
function moduleVersions(dir) {
  const found = {};
  try {
    const text = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'main.wasm.gz'))).toString('latin1');
    for (const [key, mod] of [['hcl', 'github.com/hashicorp/hcl/v2'], ['cty', 'github.com/zclconf/go-cty']]) {
      const m = new RegExp('dep\\t' + mod.replace(/[./]/g, '\\$&') + '\\tv([0-9][^\\t\\n]*)').exec(text);
      if (m) found[key] = m[1];
    }
  } catch (e) {
    // the version line says "unknown" below
  }
  return found;
}

const pkg = loadPackage();
const mods = moduleVersions(pkg.dir);

// The error text of a failed getExpressionAst: a fixed prefix, the input,
// then HCL's Diagnostics.Error(): the first diagnostic as
// "FILE:RANGE: SUMMARY; DETAIL", and ", and N other diagnostic(s)" when
// there are more. RANGE is "L,C-C" or "L,C-L,C" with the module's start
// position: lines from 0, and columns from 0 on the first line but from 1
// on the others (HCL's scanner sets the column to 1 after each newline).
const RANGE_RE = /^(\d+),(\d+)-(?:(\d+),)?(\d+): /;
const MORE_RE = /, and (\d+) other diagnostic\(s\)$/;

function hclPos(line0, col) {
  return { line: line0 + 1, column: line0 === 0 ? col + 1 : col };
}

function diagnosticFromError(message, input, src) {
  const prefix = "getExpressionAst errors on input string '" + input + "': ";
  let text = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  text = text.replace(/\s+$/, '');
  text = text.replace(MORE_RE, '');
  const diag = { severity: 'error', phase: 'parse' };
  if (text.startsWith(FILENAME + ':')) {
    const m = RANGE_RE.exec(text.slice(FILENAME.length + 1));
    if (m) {
      const sline = Number(m[1]);
      const eline = m[3] === undefined ? sline : Number(m[3]);
      const s = hclPos(sline, Number(m[2]));
      const e = hclPos(eline, Number(m[4]));
      diag.subject = {
        start: { byte: src.byteOf(s.line, s.column), line: s.line, column: s.column },
        end: { byte: src.byteOf(e.line, e.column), line: e.line, column: e.column },
      };
      text = text.slice(FILENAME.length + 1 + m[0].length);
    }
  }
  const semi = text.indexOf('; ');
  if (semi >= 0) {
    diag.summary = text.slice(0, semi);
    diag.detail = text.slice(semi + 2);
  } else {
    diag.summary = text;
  }
  return diag;
}

// parse returns {ast} or {diagnostic}.
async function parse(input, src) {
  try {
    return { ast: await pkg.api.getExpressionAst(FILENAME, input) };
  } catch (e) {
    return { diagnostic: diagnosticFromError(String(e && e.message !== undefined ? e.message : e), input, src) };
  }
}

// An AST position (line from 0, column as hclPos says, exact byte) as a
// protocol position.
function astPos(p) {
  const q = hclPos(p.line, p.column);
  return { byte: p.byte, line: q.line, column: q.column };
}

function astRange(r) {
  return { start: astPos(r.start), end: astPos(r.end) };
}

// indexKey is the typed value of a static index step. The module gives a
// string key as its text between two '"' (nothing escaped), a number as its decimal text, and nothing for
// true, false and null: those are read from the step's source ("[true]").
// Its number text is Go's: infinities are "+Inf" and "-Inf".
function indexKey(part, src) {
  const seg = part.segment;
  if (typeof seg === 'string' && seg.startsWith('"')) return { type: 'string', v: seg.slice(1, -1) };
  if (seg === '+Inf' || seg === '-Inf') return { type: 'number', v: seg === '+Inf' ? 'inf' : '-inf' };
  if (typeof seg === 'string' && seg !== '') return { type: 'number', v: seg };
  const text = src.bytes.subarray(part.range.start.byte, part.range.end.byte).toString('utf8')
    .replace(/^\s*\[/, '').replace(/\]\s*$/, '').trim();
  if (text === 'true' || text === 'false') return { type: 'bool', v: text === 'true' };
  if (text === 'null') return { type: 'dynamic', null: true };
  throw new Error('cannot tell the key of index step ' + JSON.stringify(text));
}

function traversalOf(node, src) {
  const parts = node.meta.traversal;
  const root = parts[0];
  const steps = parts.slice(1).map((p) => {
    const range = astRange(p.range);
    if (p.type === 'nameTraversal') return { attr: p.segment, range };
    return { index: indexKey(p, src), range };
  });
  const last = parts[parts.length - 1];
  return {
    root: root.segment,
    steps,
    root_range: astRange(root.range),
    range: { start: astPos(root.range.start), end: astPos(last.range.end) },
  };
}

// refsOf walks the AST in source order as HCL's Variables() does: every
// scope traversal whose root no enclosing `for` binds. A `for` node's first
// child is its collection (outside the `for`'s scope), the rest its key,
// value and condition.
function refsOf(node, bound, src, out) {
  if (!node || typeof node !== 'object') return;
  if (node.type === 'scopeTraversal' && node.meta && Array.isArray(node.meta.traversal)) {
    const parts = node.meta.traversal;
    if (parts.length > 0 && !bound.has(parts[0].segment)) out.push(traversalOf(node, src));
    return;
  }
  const children = node.children || [];
  if (node.type === 'for') {
    const inner = new Set(bound);
    if (node.meta.keyVar) inner.add(node.meta.keyVar);
    if (node.meta.valVar) inner.add(node.meta.valVar);
    children.forEach((c, i) => refsOf(c, i === 0 ? bound : inner, src, out));
    return;
  }
  for (const c of children) refsOf(c, bound, src, out);
}

const adapter = {
  hello() {
    return {
      implementation: {
        name: 'hcl2json',
        version: `${PACKAGE} ${pkg.version} (hcl ${mods.hcl || 'unknown'}, cty ${mods.cty || 'unknown'})`,
        language: 'go/wasm',
      },
      capabilities: ['mode.expression', 'request.parse', 'request.refs', 'ranges.column',
                     'diagnostics.first-only'],
      profiles: ['PN'],
    };
  },

  async run(c) {
    const { answer, input, src } = expressionSource(c, 'hcl2json');
    if (answer) return answer;
    const res = await parse(input, src);
    if (res.diagnostic) return { diagnostics: [res.diagnostic] };
    const request = c.request || 'eval';
    if (request === 'parse') return { diagnostics: [] };
    if (request === 'refs') {
      const out = [];
      refsOf(res.ast, new Set(), src, out);
      return { refs: out };
    }
    return { unsupported: true, message: `hcl2json does not evaluate (request ${request}); it parses only` };
  },
};

serve(adapter);
