import { runCli } from './run-cli.js';

/** The operator's CLI as a process: its arguments, environment and streams, and its exit code (see run-cli.ts). */
runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  // process.stdin is opened only if a command reads it (`--password-stdin`).
  stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
}).then((code) => process.exit(code));
