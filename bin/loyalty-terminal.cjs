#!/usr/bin/env -S node --max-semi-space-size=16
// The shebang's flags are src/config/runtime-flags.ts's V8_FLAGS (test/config/runtime-flags.test.ts).
// Written in plain CommonJS with old syntax on purpose: an older Node must reach the version
// check below and print a clear message instead of crashing on newer syntax.
'use strict';
var major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    'loyalty-terminal needs Node.js 24 or newer; this is Node.js ' +
      process.versions.node +
      '.\nRun it through npm (npm start, npx loyalty-terminal), which uses the Node 24 that\n' +
      'npm ci installs, or install Node 24 LTS.\n',
  );
  process.exit(2);
}
var path = require('node:path');
var url = require('node:url');
var entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
import(url.pathToFileURL(entry).href)
  .then(function (m) {
    return m.main(process.argv.slice(2));
  })
  .then(function (code) {
    process.exitCode = code;
  })
  .catch(function (err) {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).indexOf(entry) >= 0) {
      process.stderr.write('loyalty-terminal is not built yet: run `npm run build` first.\n');
      process.exit(2);
    }
    throw err;
  });
