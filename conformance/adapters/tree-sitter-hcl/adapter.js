#!/usr/bin/env node
// SPDX-License-Identifier: MPL-2.0
// adapter.js: the tfexpr conformance protocol in front of the tree-sitter
// grammar of HCL (@tree-sitter-grammars/tree-sitter-hcl, its WebAssembly
// build, run by web-tree-sitter). It answers parse requests only: whether
// the grammar accepts an expression, and where its error nodes are. See
// README.md beside this file for what it approximates.
'use strict';

const fs = require('fs');
const path = require('path');

const NODE_DIR = path.join(__dirname, '..', 'node');
const { serve, expressionSource } = require(path.join(NODE_DIR, 'protocol.js'));

const GRAMMAR = '@tree-sitter-grammars/tree-sitter-hcl';
const RUNTIME = 'web-tree-sitter';

// The grammar parses configuration files, not lone expressions: the input
// becomes the value of one attribute.
const PREFIX = 'x = ';
const SUFFIX = '\n';

function packageDir(name) {
  return path.join(NODE_DIR, 'node_modules', name);
}

function packageVersion(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

const grammarDir = packageDir(GRAMMAR);
const runtimeDir = packageDir(RUNTIME);
const TreeSitter = require(path.join(runtimeDir, 'tree-sitter.cjs'));

let parser = null;

async function getParser() {
  if (parser === null) {
    await TreeSitter.Parser.init();
    const lang = await TreeSitter.Language.load(path.join(grammarDir, 'tree-sitter-hcl.wasm'));
    parser = new TreeSitter.Parser();
    parser.setLanguage(lang);
  }
  return parser;
}

// errorNodes lists the tree's ERROR nodes (the outermost of nested ones)
// and MISSING nodes, in document order.
function errorNodes(node, out) {
  if (node.isError || node.isMissing) {
    out.push(node);
    if (node.isError) return;
  }
  if (!node.hasError) return;
  for (const child of node.children) errorNodes(child, out);
}

const adapter = {
  hello() {
    return {
      implementation: {
        name: 'tree-sitter-hcl',
        version: `${GRAMMAR} ${packageVersion(grammarDir)} (${RUNTIME} ${packageVersion(runtimeDir)})`,
        language: 'c/wasm',
      },
      capabilities: ['mode.expression', 'request.parse', 'ranges.column'],
      profiles: ['P14', 'PN'],
    };
  },

  async run(c) {
    const request = c.request || 'eval';
    if (request !== 'parse') {
      return { unsupported: true, message: `tree-sitter-hcl only parses (request ${request})` };
    }
    const { answer, input, src } = expressionSource(c, 'tree-sitter-hcl');
    if (answer) return answer;
    const tree = (await getParser()).parse(PREFIX + input + SUFFIX);
    const nodes = [];
    errorNodes(tree.rootNode, nodes);
    // Indexes are UTF-16 code units of the wrapped text; those in the
    // wrapper are taken to the nearest end of the input.
    const toByte = (index) => {
      const i = Math.min(Math.max(index - PREFIX.length, 0), input.length);
      return src.byteOfUtf16(i);
    };
    const diagnostics = nodes.map((n) => ({
      severity: 'error',
      phase: 'parse',
      summary: n.isMissing ? `missing ${n.type}` : 'syntax error',
      subject: src.range(toByte(n.startIndex), toByte(n.endIndex)),
    }));
    tree.delete();
    return { diagnostics };
  },
};

serve(adapter);
