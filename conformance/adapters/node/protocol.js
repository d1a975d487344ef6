// SPDX-License-Identifier: MPL-2.0
// protocol.js: what the Node adapters of the tfexpr conformance suite share
// (../hcl2json, ../tree-sitter-hcl): the JSON-lines request loop of
// conformance/README.md ("The protocol"), and source positions (byte
// offsets, lines, grapheme-cluster columns) for implementations that report
// only some of them.
'use strict';

const readline = require('readline');

// serve(adapter) answers requests on stdin until "stop" or end of input.
// adapter.hello() returns the hello answer without "protocol";
// adapter.run(caseObject) returns (or resolves to) the answer without "seq".
// Requests are answered one at a time, in order. With --version on the
// command line it prints the implementation's name and version instead.
function serve(adapter) {
  if (process.argv.includes('--version')) {
    const h = adapter.hello();
    process.stdout.write(`${h.implementation.name} ${h.implementation.version}\n`);
    process.exit(0);
  }
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const queue = [];
  let busy = false;
  let stopping = false; // a "stop" was answered: exit
  let ended = false; // end of input: exit once the queue is answered

  const write = (obj) => { process.stdout.write(JSON.stringify(obj) + '\n'); };

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      const m = /"seq"\s*:\s*(-?[0-9]+)/.exec(line);
      write({ seq: m ? Number(m[1]) : 0, errored: true, message: 'request is not JSON: ' + e.message });
      return;
    }
    if (req === null || typeof req !== 'object') {
      write({ seq: 0, errored: true, message: 'request is not a JSON object' });
      return;
    }
    switch (req.cmd) {
      case 'hello':
        write({ protocol: 1, ...adapter.hello() });
        return;
      case 'stop':
        stopping = true;
        return;
      case 'run': {
        let answer;
        try {
          answer = await adapter.run(req.case || {});
        } catch (e) {
          answer = { errored: true, message: String(e && e.stack ? e.stack : e) };
        }
        write({ seq: req.seq, ...answer });
        return;
      }
      default:
        write({ seq: req.seq === undefined ? 0 : req.seq, errored: true,
                message: 'unknown command ' + JSON.stringify(req.cmd) });
    }
  }

  async function drain() {
    if (busy) return;
    busy = true;
    while (queue.length > 0 && !stopping) {
      await handle(queue.shift());
    }
    busy = false;
    if (stopping || ended) process.exit(0);
  }

  rl.on('line', (line) => {
    if (line.trim() === '') return;
    queue.push(line);
    drain();
  });
  rl.on('close', () => {
    ended = true;
    drain();
  });
}

// caseSource(c) returns the case's source as a JavaScript string, or null
// when its bytes (input_base64) are not valid UTF-8, which neither
// implementation can be given.
function caseSource(c) {
  if (typeof c.input === 'string') return c.input;
  if (typeof c.input_base64 === 'string') {
    const bytes = Buffer.from(c.input_base64, 'base64');
    try {
      // ignoreBOM keeps a leading byte order mark in the text (the
      // implementation, not the decoder, is to skip it)
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (e) {
      return null;
    }
  }
  return '';
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// columnClusters(text) splits one line's text into what HCL counts as one
// column each: grapheme clusters, but counted token by token, so that a
// cluster never spans two tokens. Tokens are not known here; a cluster is
// cut before a non-ASCII character that follows an ASCII one, unless that
// one is an identifier character and the new one may continue an identifier
// (a letter and its combining accent stay one cluster, inside a string or an
// identifier alike). Lone marks and joiners after a space, a punctuation
// character or a letter are invalid characters, their own tokens in HCL.
function columnClusters(text) {
  const pieces = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    const prev = text.charCodeAt(i - 1);
    const cur = text.codePointAt(i);
    if (prev < 0x80 && cur >= 0x80) {
      const ident = /[A-Za-z0-9_]/.test(text[i - 1]) && cur !== 0x200c && cur !== 0x200d &&
        /\p{ID_Continue}/u.test(String.fromCodePoint(cur));
      if (!ident) {
        pieces.push(text.slice(start, i));
        start = i;
      }
    }
  }
  pieces.push(text.slice(start));
  const out = [];
  for (const piece of pieces) {
    for (const seg of graphemes.segment(piece)) out.push(seg.segment);
  }
  return out;
}

// Source maps between the positions of one source text: UTF-8 byte offsets
// (from 0), lines (from 1, a new one after each "\n") and columns (from 1,
// as columnClusters counts them; a leading byte order mark takes none).
class Source {
  constructor(text) {
    this.text = text;
    this.bytes = Buffer.from(text, 'utf8');
    // HCL skips a byte order mark at the very start: it takes no column.
    this.bom = this.bytes.length >= 3 && this.bytes[0] === 0xef && this.bytes[1] === 0xbb &&
      this.bytes[2] === 0xbf ? 3 : 0;
    // byte offset where each line starts
    this.lineStarts = [0];
    for (let i = 0; i < this.bytes.length; i++) {
      if (this.bytes[i] === 0x0a) this.lineStarts.push(i + 1);
    }
  }

  lineText(line) {
    const start = line === 1 ? this.bom : this.lineStarts[line - 1];
    const next = line < this.lineStarts.length ? this.lineStarts[line] : this.bytes.length;
    return this.bytes.subarray(start, next).toString('utf8');
  }

  // byteOf(line, column) is the byte offset of a (line, column) position;
  // a column past the end of its line counts one byte per extra column.
  byteOf(line, column) {
    if (line < 1) return 0;
    if (line > this.lineStarts.length) return this.bytes.length;
    let byte = line === 1 ? this.bom : this.lineStarts[line - 1];
    let col = 1;
    for (const cluster of columnClusters(this.lineText(line))) {
      if (col >= column) return byte;
      if (cluster.endsWith('\n')) break;
      byte += Buffer.byteLength(cluster, 'utf8');
      col++;
    }
    return Math.min(byte + (column - col), this.bytes.length);
  }

  // posOf(byte) is the {byte, line, column} position of a byte offset.
  posOf(byte) {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= byte) lo = mid; else hi = mid - 1;
    }
    const start = lo === 0 ? Math.min(this.bom, byte) : this.lineStarts[lo];
    const before = this.bytes.subarray(start, byte).toString('utf8');
    return { byte, line: lo + 1, column: 1 + columnClusters(before).filter((c) => c !== '').length };
  }

  // range(startByte, endByte) is a protocol range.
  range(startByte, endByte) {
    return { start: this.posOf(startByte), end: this.posOf(endByte) };
  }

  // byteOfUtf16(index) is the byte offset of a JavaScript string index.
  byteOfUtf16(index) {
    return Buffer.byteLength(this.text.slice(0, index), 'utf8');
  }
}

// expressionSource(c, name) is {input, src} for a case in mode expression
// whose source is UTF-8, and otherwise {answer}: what the adapters of
// implementation `name` answer (unsupported).
function expressionSource(c, name) {
  if (c.mode !== 'expression') {
    return { answer: { unsupported: true, message: `${name} parses expressions only (no bare templates)` } };
  }
  const input = caseSource(c);
  if (input === null) {
    return { answer: { unsupported: true, message: `the input is not UTF-8; ${name} is given a JavaScript string` } };
  }
  return { input, src: new Source(input) };
}

module.exports = { serve, caseSource, expressionSource, Source };
